// The v1 backfill's full pages kept serialized (a full page never changes): each cut around its total and its
// timestamp, which every response fills in.
import type { FastifyReply } from 'fastify';
import type { KeptPage } from '../../../domain/events/backfill-index.ts';
import { JSON_TYPE, lastAnswer, linkNext, nextCursorOf, STAMP_PLACEHOLDER } from '../../envelope.ts';
import { ifNoneMatchHits, weakEtagOf } from '../../plugins/etag.ts';

/** The backfill's full pages kept in a process, in bytes (a page of 100 events is about 34 KB). */
export const BACKFILL_PAGES_MAX_BYTES = 128 * 1024 * 1024;
/** The `total` a kept page is serialized with, replaced by each response's. */
export const TOTAL_PLACEHOLDER = Number.MAX_SAFE_INTEGER;

/** A full page's body cut around its total and its timestamp (`pagination` follows `data`; `meta` is last). */
export function keptPage(from: bigint, serialized: string): KeptPage {
  const totalField = `"total":${TOTAL_PLACEHOLDER}`;
  const stampField = `"timestamp":"${STAMP_PLACEHOLDER}"`;
  const t = serialized.lastIndexOf(totalField);
  const s = serialized.lastIndexOf(stampField);
  if (t === -1 || s < t) throw new Error('a backfill page without its total or timestamp placeholder');
  const head = serialized.slice(0, t + '"total":'.length);
  const middle = serialized.slice(t + totalField.length, s + '"timestamp":'.length);
  const tail = serialized.slice(s + stampField.length);
  const tag = weakEtagOf(head + middle + tail).slice(3, -1);
  const bytes = { head: Buffer.from(head), middle: Buffer.from(middle), tail: Buffer.from(tail) };
  const size = bytes.head.length + bytes.middle.length + bytes.tail.length;
  return { from, ...bytes, next: nextCursorOf(serialized), tag, bytes: size + 200 };
}

/** The answer made last of a kept page (envelope.ts lastAnswer). */
const keptLast = lastAnswer();

/**
 * A kept page with this response's total and time, and its `Link` to the next page (the list's onSend hook reads
 * string bodies only); its ETag is the events' tag and the total.
 */
export function sendKept(reply: FastifyReply, page: KeptPage, total: number) {
  const etag = `W/"${page.tag}.${total}"`;
  reply.header('etag', etag);
  if (page.next !== undefined) linkNext(reply.request, reply, page.next);
  if (ifNoneMatchHits(reply.request.headers['if-none-match'], etag)) return reply.code(304).send();
  const body = keptLast(page, String(total), (time) => {
    const totalBytes = Buffer.from(String(total));
    const stampBytes = Buffer.from(`"${time}"`);
    const { head, middle, tail } = page;
    const length = head.length + totalBytes.length + middle.length + stampBytes.length + tail.length;
    return Buffer.concat([head, totalBytes, middle, stampBytes, tail], length);
  });
  return reply.type(JSON_TYPE).send(body);
}
