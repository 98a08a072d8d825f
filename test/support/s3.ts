import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { ListObjectsV2Command, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** The credentials the test server accepts (it checks every request's signature against them). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A real S3-protocol server in this process (s3rver: objects as files in a temporary folder), with one bucket,
 * and an SDK client to look into it the way any other S3 user would.
 */
export class TestS3Server {
  private server: S3rver;
  readonly client: S3Client;

  private constructor(
    private readonly directory: string,
    readonly bucket: string,
    readonly port: number,
    server: S3rver,
  ) {
    this.server = server;
    this.client = new S3Client({ region: 'us-east-1', endpoint: this.endpoint, forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
    // s3rver signs a bucket's own path as `/bucket` while the SDK sends `/bucket/` (ListObjects): the signatures
    // differ. Object paths, all the service uses, are signed alike; only this looking-in client needs the fix.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string };
        if (request.path && /^\/[^/]+\/$/.test(request.path)) request.path = request.path.slice(0, -1);
        return next(args);
      },
      { step: 'build', name: 's3rverBucketPath' },
    );
  }

  static async start(bucket = 'media'): Promise<TestS3Server> {
    const directory = mkdtempSync(join(tmpdir(), 'socialgate-s3-'));
    const server = TestS3Server.server(directory, bucket, 0);
    const { port } = await server.run();
    return new TestS3Server(directory, bucket, port, server);
  }

  private static server(directory: string, bucket: string, port: number): S3rver {
    return new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Every key in the bucket (under a prefix). */
  async keys(prefix = ''): Promise<string[]> {
    const listed = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  }

  async object(key: string): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  }

  /** Stops answering (connections cut), as a store that went down does; `restart` brings it back with its objects. */
  async stop(): Promise<void> {
    this.server.httpServer?.closeAllConnections();
    await this.server.close();
  }

  async restart(): Promise<void> {
    this.server = TestS3Server.server(this.directory, this.bucket, this.port);
    await this.server.run();
  }

  async close(): Promise<void> {
    this.client.destroy();
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
