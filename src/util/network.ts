import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WeirError } from '../errors.js';

/** A deny list of networks for outgoing requests (`weir.config.json` `network.deny`). */
export interface NetworkPolicy {
  /** True when an IP address falls in a denied network. */
  denied(address: string): boolean;
  /** A `dns.lookup` for `http.request` that fails when the name resolves to a denied address. */
  lookup: LookupFunction;
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Builds the policy from CIDR strings (`10.0.0.0/8`, `fd00::/8`, or a single address). The check happens
 * at connect time on the resolved address, so a name that later resolves elsewhere is still caught.
 * @example
 * const policy = createNetworkPolicy(['127.0.0.0/8', '169.254.169.254/32'])
 * policy.denied('127.0.0.1') // true
 */
export function createNetworkPolicy(deny: readonly string[] = []): NetworkPolicy {
  const list = new BlockList();
  for (const cidr of deny) {
    const [address, bits, extra] = String(cidr).split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new WeirError('INVALID_CONFIG', `network.deny: ${JSON.stringify(cidr)} is not a CIDR range such as 10.0.0.0/8 or fd00::/8`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  const denied = (address: string): boolean => {
    const family = isIP(address);
    if (!family) return false;
    const mapped = MAPPED_V4.exec(address)?.[1];
    return list.check(address, family === 6 ? 'ipv6' : 'ipv4') || (mapped !== undefined && list.check(mapped, 'ipv4'));
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, options, (err, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, '', 0);
      const all = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
      const blocked = all.find((a) => denied(a.address));
      if (blocked) return callback(forbidden(hostname, blocked.address), '', 0);
      (callback as (e: null, a: string | LookupAddress[], f?: number) => void)(null, address, family);
    });
  };
  return { denied, lookup };
}

/** The error for a request to a denied address. */
export const forbidden = (host: string, address: string) =>
  new WeirError('FORBIDDEN', `${host} is ${address}, which network.deny in weir.config.json blocks`);
