/** What `secrets list` shows: names and times, never values. */
export interface SecretSummary {
  name: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Organization secrets, AES-256-GCM at rest (`weir.secrets`); their values reach flows as `$env`.
 * @example
 * await weir.secrets.set('STRIPE_KEY', 'sk_live_...')
 * await weir.secrets.list() // [{ name: 'STRIPE_KEY', createdAt, updatedAt }]
 */
export interface Secrets {
  /** Names and times of every secret, by name. */
  list(): Promise<SecretSummary[]>;
  /** Creates or replaces a secret. */
  set(name: string, value: string): Promise<SecretSummary>;
  /** The plaintext of one secret. */
  get(name: string): Promise<string>;
  /** Deletes a secret. */
  delete(name: string): Promise<SecretSummary>;
  /** Every secret's plaintext by name: the executor merges these into `$env` and masks them in records. */
  values(): Promise<Record<string, string>>;
  /**
   * The same values for the executor, without a promise when they are known (read before and unchanged
   * since): every run asks, and most hosts have none or few. Read-only.
   */
  valuesNow(): Readonly<Record<string, string>> | Promise<Record<string, string>>;
}
