/** What a status URL is built from: the request that was answered with it. */
export interface StatusUrlRequest {
  headers: Record<string, string>;
  /** Where weir's routes are reached from outside, mount prefix included (`--public-url`, an adapter's `publicUrl`). */
  publicUrl?: string;
  /** Scheme, host and port the request was sent to, as its transport saw it. */
  origin?: string;
  /** The path weir is mounted under in an embedding app. */
  base?: string;
}

/**
 * The status URL of a token on the host the caller reached: `<public URL>/executions/<token>` when a public
 * URL is set (it already names the mount prefix), else the origin the request was sent to (its `Host`)
 * and the path weir is mounted under.
 * @example
 * statusUrlOf({ headers: { host: 'hooks.example.com' }, base: '/weir' }, token) // 'http://hooks.example.com/weir/executions/<token>'
 */
export function statusUrlOf(req: StatusUrlRequest, token: string): string {
  const base = req.publicUrl ?? `${req.origin ?? `http://${req.headers.host ?? '127.0.0.1'}`}${req.base ?? ''}`;
  return `${base}/executions/${token}`;
}
