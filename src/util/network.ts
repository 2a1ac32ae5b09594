import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WeirError } from '../errors.js';

/**
 * Networks no outgoing request reaches unless `network.allow` re-opens them: "this host" (`0.0.0.0/8` and
 * `::`, which connect to the local machine), link-local ranges (where most clouds serve instance metadata
 * and credentials, 169.254.169.254 and ECS's 169.254.170.2 among them), and the metadata addresses outside
 * those ranges (AWS over IPv6, Alibaba Cloud, Oracle Cloud's legacy one).
 */
export const DEFAULT_DENY: readonly string[] = [
  '0.0.0.0/8',
  '::/128',
  '169.254.0.0/16',
  'fe80::/10',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
  '192.0.0.192/32',
];

/** `network` of `weir.config.json`: CIDR lists (`10.0.0.0/8`, `fd00::/8`, or a single address). */
export interface NetworkSettings {
  /** Networks blocked on top of {@link DEFAULT_DENY}. */
  deny?: string[];
  /** Networks reachable even when a default or `deny` range holds them. */
  allow?: string[];
}

export interface NetworkPolicyOptions extends NetworkSettings {
  /** How host names become addresses (default `dns.lookup`); every address it returns is checked. */
  lookup?: LookupFunction;
}

/** Which outgoing addresses requests may reach. */
export interface NetworkPolicy {
  /** Why an IP address may not be reached (a {@link WeirError} naming the setting), or null when it may. */
  check(address: string, host?: string): WeirError | null;
  /** A `dns.lookup` for `http.request` that fails when the name resolves to a blocked address. */
  lookup: LookupFunction;
}

/** A BlockList of CIDR strings; a malformed entry is an INVALID_CONFIG error naming `key`. */
function blockList(cidrs: unknown, key: string): BlockList {
  const list = new BlockList();
  if (cidrs === undefined) return list;
  if (!Array.isArray(cidrs)) throw new WeirError('INVALID_CONFIG', `${key} in weir.config.json must be a list of CIDR ranges such as ["10.0.0.0/8"]`);
  for (const cidr of cidrs) {
    const [address, bits, extra] = String(cidr).split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : NaN;
    if (typeof cidr !== 'string' || !family || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
      throw new WeirError('INVALID_CONFIG', `${key}: ${JSON.stringify(cidr)} is not a CIDR range such as 10.0.0.0/8 or fd00::/8`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/**
 * Builds the policy; the lists are checked here, so a bad entry fails when the instance starts. `allow`
 * wins over both the defaults and `deny`, so a deny range can keep one reachable hole. Checks apply to the
 * resolved address at connect time, so a name that resolves to a blocked address is caught too; IPv4
 * addresses written as IPv6 (`::ffff:169.254.169.254`) are checked as IPv4.
 * @example
 * const policy = createNetworkPolicy({ deny: ['127.0.0.0/8'], allow: ['169.254.170.2'] })
 * policy.check('127.0.0.1')?.code // 'FORBIDDEN'
 * policy.check('169.254.170.2') // null
 */
export function createNetworkPolicy({ deny, allow, lookup = dnsLookup as LookupFunction }: NetworkPolicyOptions = {}): NetworkPolicy {
  const defaults = blockList(DEFAULT_DENY, 'network defaults');
  const denied = blockList(deny, 'network.deny');
  const allowed = blockList(allow, 'network.allow');
  const check = (address: string, host = address): WeirError | null => {
    const version = isIP(address);
    const family = version === 6 ? 'ipv6' : 'ipv4';
    if (!version || allowed.check(address, family)) return null;
    const shown = host === address ? address : `${host} is ${address}, which`;
    if (denied.check(address, family)) return new WeirError('FORBIDDEN', `${shown} is blocked by network.deny in weir.config.json`);
    if (!defaults.check(address, family)) return null;
    return new WeirError(
      'FORBIDDEN',
      `${shown} is in a network blocked by default (this host, link-local or cloud metadata); add "${address}" to network.allow in weir.config.json to reach it`,
    );
  };
  const guarded: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, options, (err, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, '', 0);
      const all = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
      for (const a of all) {
        const blocked = check(a.address, hostname);
        if (blocked) return callback(blocked, '', 0);
      }
      (callback as (e: null, a: string | LookupAddress[], f?: number) => void)(null, address, family);
    });
  };
  return { check, lookup: guarded };
}
