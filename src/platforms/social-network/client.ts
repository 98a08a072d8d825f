import { classifyMetaError, type GraphClassifier, graphCall, type GraphRequest } from '../meta/graph.js';

/**
 * The Graph API as the pages, their owners and the app use it, at `{host}/{version}`: each call with the token
 * it needs (the user's, a page's, or none where the app's credentials go in the request), failures classified by
 * Meta's rules unless the caller knows the platform's refusals better (a page post's).
 */
export class SocialNetworkClient {
  constructor(private readonly graphUrl: string) {}

  call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    request: GraphRequest = {},
    classify: GraphClassifier = classifyMetaError,
  ): Promise<T> {
    return graphCall<T>(this.graphUrl, method, path, request, classify);
  }
}
