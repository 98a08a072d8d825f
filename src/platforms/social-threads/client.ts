import { classifyMetaError, type GraphClassifier, graphCall, type GraphRequest } from '../meta/graph.js';

/**
 * The Threads API: its token endpoints at the host's root, everything else under `{host}/{version}` with the
 * user's token as `access_token` (in the query, or in the form of a write), as the API takes it.
 */
export class SocialThreadsClient {
  constructor(
    private readonly apiUrl: string,
    private readonly version: string,
  ) {}

  /** A token endpoint (exchange, refresh): the app's or the user's credentials are in the request itself. */
  token<T>(method: 'GET' | 'POST', path: string, request: GraphRequest): Promise<T> {
    return graphCall<T>(this.apiUrl, method, path, request);
  }

  call<T>(
    token: string,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string | undefined> = {},
    classify: GraphClassifier = classifyMetaError,
  ): Promise<T> {
    const withToken = { ...params, access_token: token };
    return graphCall<T>(
      `${this.apiUrl}/${this.version}`,
      method,
      path,
      method === 'POST' ? { form: withToken } : { query: withToken },
      classify,
    );
  }
}
