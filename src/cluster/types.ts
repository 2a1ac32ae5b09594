/**
 * What several `weir serve` processes of one organization share besides storage: a Redis server for claim
 * claims (schedules) and pub/sub (publish propagation, Respond answers). Connections open on first use.
 */
export interface Cluster {
  /** The Redis URL and the key prefix every coordination key lives under. */
  url: string;
  prefix: string;
  /** This process's id in the cluster (reply channels, loop-free broadcasts). */
  nodeId: string;
  /** True for exactly one caller per key while the claim lives (`SET NX PX`). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  publish(channel: string, message: unknown): Promise<void>;
  /**
   * Listens to a channel (JSON messages); resolves once Redis confirmed the subscription. `resumed` is called
   * when the subscription is back after a lost connection: messages sent meanwhile were not received.
   */
  subscribe(channel: string, handler: (message: any) => void, resumed?: () => void): Promise<() => Promise<void>>;
  /** Re-emits on this bus the publish/unpublish events of every other process (hosts call it once). */
  follow(): Promise<void>;
  /** Waits for broadcasts in flight, then closes the connections. */
  close(): Promise<void>;
}
