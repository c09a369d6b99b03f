// The connection caps of the event streams: slots taken per client (an API key or an address), keyed and keyless
// streams each under a cap of their own. A slot is taken before a stream's filters are resolved, and given back when
// the stream closes or never opens.
import { SSE_CAP_RETRY_AFTER_S, SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT } from '../../constants.ts';
import { AppError } from '../../errors.ts';

/** A slot under the connection caps, taken before a stream's filters are resolved. */
export interface Admission {
  readonly client: string;
}

export interface AdmitLimits {
  /** Streams this client holds at most; maxConnectionsPerClient when absent. */
  perClient?: number | undefined;
  /** A keyless stream: under publicMaxConnections, not maxConnections. */
  keyless?: boolean | undefined;
}

export interface AdmissionLimits {
  /** Keyed streams this process holds at most. */
  maxConnections: number;
  maxConnectionsPerClient: number;
  /** Keyless streams (GET /api/events) this process holds at most, apart from maxConnections. */
  publicMaxConnections?: number | undefined;
}

export interface SlotRecord extends Admission {
  released: boolean;
  keyless: boolean;
}

export interface Admissions {
  /** Takes a slot for `client` under the caps of its kind, or throws 429 RATE_LIMITED. */
  admit(client: string, limits?: AdmitLimits): SlotRecord;
  /** Gives a slot back (once; a second release is nothing). */
  release(slot: SlotRecord): void;
  stats(): { slots: number; clients: number };
}

const rateLimited = (message: string) =>
  new AppError('RATE_LIMITED', message, { headers: { 'retry-after': String(SSE_CAP_RETRY_AFTER_S) } });

export function createAdmissions(options: AdmissionLimits): Admissions {
  const publicMax = options.publicMaxConnections ?? SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT;
  /** Slots taken: keyed and keyless, each under its own cap. */
  let slots = 0;
  let keylessSlots = 0;
  const slotsByClient = new Map<string, number>();

  return {
    admit(client, limits = {}) {
      const cap = limits.perClient ?? options.maxConnectionsPerClient;
      const keyless = limits.keyless ?? false;
      const held = slotsByClient.get(client) ?? 0;
      if (held >= cap) {
        throw rateLimited(
          `Too many event streams for this ${client.startsWith('key:') ? 'API key' : 'client address'}: at most ${cap} at once; close one, or filter one stream by several companies`,
        );
      }
      if (keyless && keylessSlots >= publicMax) {
        throw rateLimited(
          `Too many keyless event streams on this server (at most ${publicMax}); retry later, or use /api/v1/events with an API key`,
        );
      }
      if (!keyless && slots - keylessSlots >= options.maxConnections) {
        throw rateLimited(`Too many event streams on this server (at most ${options.maxConnections}); retry later`);
      }
      slots++;
      if (keyless) keylessSlots++;
      slotsByClient.set(client, held + 1);
      return { client, released: false, keyless };
    },

    release(a) {
      if (a.released) return;
      a.released = true;
      slots--;
      if (a.keyless) keylessSlots--;
      const n = (slotsByClient.get(a.client) ?? 1) - 1;
      if (n > 0) slotsByClient.set(a.client, n);
      else slotsByClient.delete(a.client);
    },

    stats: () => ({ slots, clients: slotsByClient.size }),
  };
}
