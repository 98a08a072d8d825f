import type { SocialState } from './state.js';

/** A post on a page's timeline: made through the API (text, link, photos, a video) or in the app. */
export interface PagePost {
  id: string;
  pageId: string;
  message: string | null;
  link: string | null;
  photoUrls: string[];
  videoId: string | null;
  createdAt: number;
  deleted: boolean;
  madeInApp: boolean;
  reactions: number;
  shares: number;
  comments: PageComment[];
}
/** A comment on a page post: by the page itself, or by a person (`from`); replies name their comment (`parentId`). */
export interface PageComment {
  id: string;
  message: string;
  fromPage: boolean;
  createdAt: number;
  from?: { id: string; name: string };
  parentId?: string | null;
  hidden?: boolean;
  deleted?: boolean;
  /** A photo the page attached (`attachment_url`), as fetched. */
  attachmentUrl?: string;
}
export interface Photo {
  id: string;
  pageId: string;
  url: string;
  postId: string | null;
}
export interface Video {
  id: string;
  pageId: string;
  description: string | null;
  title: string | null;
  status: 'processing' | 'ready' | 'error';
  readsUntilReady: number;
  failing: boolean;
  post: PagePost;
}

/**
 * What the people's control can make the next call on a page answer: throttling with the usage headers, a
 * duplicate, a policy block, an outage before anything is made, a post made whose answer never comes, a video
 * whose processing fails, a failing comment (`code`: 1 is transient, 368 a block); `edge` limits it to one edge.
 */
export type PostFault = (
  | { kind: 'rate_limited'; minutes?: number }
  | { kind: 'duplicate' }
  | { kind: 'policy' }
  | { kind: 'server_error' }
  | { kind: 'hang_after_create' }
  | { kind: 'video_processing_error' }
  | { kind: 'comment_fails'; code?: number }
) & { edge?: 'feed' | 'photos' | 'videos' };

/** What the pages' posts keep across a restart: the posts, photos and videos (faults waiting are not kept). */
export interface PagePostsState {
  posts: Map<string, PagePost>;
  photos: Map<string, Photo>;
  videos: Map<string, Video>;
}

/** Who wrote a person's comment on a page post, when, and on which page: what a private reply needs of it. */
export interface CommentAuthor {
  pageId: string;
  psid: string;
  at: number;
}

/** Who a person's comment is from when the control names nobody. */
export const DEFAULT_COMMENTER = { id: '6734519027381945', name: 'Lena Fischer' };

/**
 * The pages' timelines: their posts, photos and videos with the posts' comments, and the faults waiting for a
 * page's next calls. The posts part makes and keeps them; comments, insights and Messenger read them.
 */
export class PageFeed {
  readonly posts = new Map<string, PagePost>();
  readonly photos = new Map<string, Photo>();
  readonly videos = new Map<string, Video>();
  private readonly faults = new Map<string, PostFault[]>();

  constructor(private readonly state: SocialState) {}

  /** Back to what was kept before a restart. */
  restore(kept: PagePostsState | undefined): void {
    if (!kept) return;
    for (const [id, post] of kept.posts) this.posts.set(id, post);
    for (const [id, photo] of kept.photos) this.photos.set(id, photo);
    for (const [id, video] of kept.videos) this.videos.set(id, video);
    // A video's post is one of the posts, not a copy of it: what happens to either shows on both.
    for (const video of this.videos.values()) video.post = this.posts.get(video.post.id) ?? video.post;
  }

  kept(): PagePostsState {
    return { posts: this.posts, photos: this.photos, videos: this.videos };
  }

  newPost(pageId: string, fields: Partial<PagePost>): PagePost {
    const post: PagePost = {
      id: `${pageId}_${this.state.newId()}`,
      pageId,
      message: null,
      link: null,
      photoUrls: [],
      videoId: null,
      createdAt: Date.now(),
      deleted: false,
      madeInApp: false,
      reactions: 0,
      shares: 0,
      comments: [],
      ...fields,
    };
    this.posts.set(post.id, post);
    return post;
  }

  /** Shown: not deleted, and its video (if any) processed. */
  visible(post: PagePost): boolean {
    return !post.deleted && (!post.videoId || this.videos.get(post.videoId)?.status === 'ready');
  }

  findComment(id: string): { post: PagePost; comment: PageComment } | null {
    for (const post of this.posts.values()) {
      const comment = post.comments.find((c) => c.id === id);
      if (comment) return { post, comment };
    }
    return null;
  }

  /** A person's comment on a page post (those of the comments controls too), which a private reply may answer. */
  personComment(id: string): CommentAuthor | null {
    const found = this.findComment(id);
    if (!found || found.comment.fromPage || found.comment.deleted) return null;
    return { pageId: found.post.pageId, psid: found.comment.from?.id ?? DEFAULT_COMMENTER.id, at: found.comment.createdAt };
  }

  addFaults(pageId: string, faults: PostFault[]): PostFault[] {
    this.faults.set(pageId, [...(this.faults.get(pageId) ?? []), ...faults]);
    return this.faults.get(pageId)!;
  }

  /** The first fault of one of `kinds` waiting for this page (and this edge, where the fault names one). */
  takeFault(pageId: string, kinds: Array<PostFault['kind']>, edge?: string): PostFault | undefined {
    const list = this.faults.get(pageId) ?? [];
    const index = list.findIndex((fault) => kinds.includes(fault.kind) && (!fault.edge || !edge || fault.edge === edge));
    return index < 0 ? undefined : list.splice(index, 1)[0];
  }
}
