import { WeirError } from '../../errors.js';
import type { ExecutionRecord, Masker } from '../../flow/types.js';
import { seal, unseal, type MasterKeySource, type Sealed } from '../secrets/crypto.js';
import { recordsOf, sealedOf, storedJson, withSealed } from './stored.js';

export type { Sealed };

/** Seals and unseals the real records of executions. */
export interface Sealing {
  /**
   * The JSON to store for a record whose JSON (`storedJson`) is `json`: as is when `mask` finds no secret in
   * it (no copy, no encryption: the usual case, and the only one without secrets), else the masked record's,
   * with `json` sealed in it.
   */
  stored(record: ExecutionRecord, json: string, mask: Masker): { json: string; sealed?: Sealed };
  /** The record masked, carrying its real data sealed when masking changed it ({@link sealedOf}). */
  masked(record: ExecutionRecord, mask: Masker): ExecutionRecord;
  /** What a resume or a retry continues: the record with the real input and node records of its sealed part. */
  real(record: ExecutionRecord): Promise<ExecutionRecord>;
}

/** Names the sealed data of an execution, so it cannot be passed off as another's or as a secret (no `:` in their names). */
const aad = (id: string) => `execution:${id}`;

/**
 * An execution's record is stored masked, as it is shown. When masking changed it (a node's data held a
 * secret), the real record rides beside it, sealed with the instance's master key (AES-256-GCM, as secrets:
 * see src/resources/secrets/crypto.ts): a resume or a retry continues from the real data, everything else
 * reads the masked one. A masker that finds a secret exists only once secrets were read, with that key, so
 * sealing finds the key loaded.
 * @example
 * const sealing = createSealing(masterKeyOnce({ home, env }))
 * const { json, sealed } = sealing.stored(record, storedJson(record), run.mask)
 * const real = await sealing.real(shownRecord)
 */
export function createSealing(key: MasterKeySource): Sealing {
  const sealText = (id: string, json: string): Sealed => {
    const master = key.now();
    if (!master) throw new WeirError('INTERNAL', 'an execution record holds a secret but the master key is not loaded');
    return seal(master, aad(id), json);
  };
  return {
    stored(record, json, mask) {
      if (!mask.finds(json)) return { json };
      return { json: storedJson(mask.record(record)), sealed: sealText(record.id, json) };
    },
    masked(record, mask) {
      const shown = mask.record(record);
      if (shown === record) return shown;
      const json = storedJson(record);
      return mask.finds(json) ? withSealed(shown, sealText(record.id, json)) : shown;
    },
    async real(record) {
      const sealed = sealedOf(record);
      if (!sealed) return record;
      const text = unseal(await key.load(), aad(record.id), sealed, `the data of execution ${record.id}`);
      const [real] = recordsOf({ records: [JSON.parse(text)] });
      return { ...record, input: real.input, nodes: real.nodes };
    },
  };
}
