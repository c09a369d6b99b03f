// The stream's query parsing: types, companies and the resume point, each refused with a message naming what was
// wrong and what is allowed.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, SSE_FILTER_COMPANIES_MAX } from '../../../src/constants.ts';
import { parseCompanyRefs, parseEventTypes, parseLastEventId } from '../../../src/domain/events/filters.ts';
import { AppError } from '../../../src/errors.ts';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_ERROR');
    return err as AppError;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('parseEventTypes', () => {
  it('reads comma-separated types, trimming blanks and repeats; absent or empty means every type', () => {
    expect(parseEventTypes(undefined)).toBeUndefined();
    expect(parseEventTypes('')).toBeUndefined();
    expect(parseEventTypes(' , ')).toBeUndefined();
    expect([...parseEventTypes('trade, score,trade,')!]).toEqual(['trade', 'score']);
    expect([...parseEventTypes(EVENT_TYPES.join(','))!]).toEqual([...EVENT_TYPES]);
  });

  it('refuses unknown types, naming each and the allowed ones', () => {
    const err = refusal(() => parseEventTypes('trade,Trade,mint'));
    expect(err.details).toEqual([
      {
        path: 'query.types',
        message: 'has unknown event types "Trade", "mint": each must be one of decision, trade, score, season',
      },
    ]);
  });
});

describe('parseCompanyRefs', () => {
  it('reads comma-separated slugs or ids; absent or empty means every company', () => {
    expect(parseCompanyRefs(undefined)).toBeUndefined();
    expect(parseCompanyRefs(',')).toBeUndefined();
    expect(parseCompanyRefs('acme, cm1abc ,acme')).toEqual(['acme', 'cm1abc']);
  });

  it(`refuses more than ${SSE_FILTER_COMPANIES_MAX} companies`, () => {
    const list = Array.from({ length: SSE_FILTER_COMPANIES_MAX + 1 }, (_, i) => `c${i}`).join(',');
    expect(parseCompanyRefs(list.split(',').slice(1).join(','))).toHaveLength(SSE_FILTER_COMPANIES_MAX);
    expect(refusal(() => parseCompanyRefs(list)).message).toMatch(/at most 100 companies, got 101/);
  });
});

describe('parseLastEventId', () => {
  it('takes the header first, then the query parameter; blank means no resume', () => {
    expect(parseLastEventId(undefined, undefined)).toBeUndefined();
    expect(parseLastEventId('', undefined)).toBeUndefined();
    expect(parseLastEventId('42', '7')).toBe(42n);
    expect(parseLastEventId(undefined, '7')).toBe(7n);
    expect(parseLastEventId('0', undefined)).toBe(0n);
    expect(parseLastEventId('999999999999999999', undefined)).toBe(999_999_999_999_999_999n);
  });

  it('refuses anything but a decimal event id, naming where it came from', () => {
    for (const bad of ['x', '-1', '01', '1e3', '0x10', '1000000000000000000']) {
      expect(refusal(() => parseLastEventId(bad, undefined)).details?.[0]?.path).toBe('headers.last-event-id');
    }
    expect(refusal(() => parseLastEventId(undefined, 'x')).details?.[0]?.path).toBe('query.lastEventId');
  });
});
