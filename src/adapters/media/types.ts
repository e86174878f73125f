/** What a store knows of one object without reading it. */
export interface MediaObjectInfo {
  size: number;
}

/** One stored object with its bytes (a stream from R2, a buffer from the disk or memory). */
export interface MediaObject extends MediaObjectInfo {
  body: ReadableStream<Uint8Array> | Uint8Array;
}

/**
 * Where our own copies of tools' images live, keyed by media name (`{sha256}.{ext}`, src/media/media-name.ts):
 * a Cloudflare R2 bucket in production, DATA_DIR/media on Node, memory in tests. Names are content hashes,
 * so a put of an existing name writes the same bytes and objects are never changed or listed.
 * Every implementation refuses a name that is not a well-formed media name.
 */
export interface MediaStore {
  readonly kind: 'r2' | 'filesystem' | 'memory';
  head(name: string): Promise<MediaObjectInfo | null>;
  get(name: string): Promise<MediaObject | null>;
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>;
}
