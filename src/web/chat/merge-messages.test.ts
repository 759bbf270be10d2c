import { describe, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE, type ChatMessage } from '../../shared/chat.js';
import {
  applyOlder,
  applySent,
  applySnapshot,
  emptyLog,
  mergeMessages,
  withoutHidden,
} from './merge-messages.js';

/** Message number n, one second apart; ids sort like their numbers. */
const msg = (n: number): ChatMessage => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  text: `message ${n}`,
  createdAt: new Date(Date.UTC(2030, 0, 1) + n * 1000).toISOString(),
  uid: '00000000-0000-4000-8000-00000000aaaa',
  displayName: 'Someone',
  photoURL: null,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const numbers = (messages: ChatMessage[]) => messages.map((m) => Number(m.text.split(' ')[1]));

describe('chat message merging', () => {
  it('merges by id in time order, keeping no duplicates', () => {
    expect(numbers(mergeMessages([msg(3), msg(1)], [msg(2), msg(3)]))).toEqual([1, 2, 3]);
  });

  it('orders messages of the same millisecond by id', () => {
    const a = { ...msg(1), id: '00000000-0000-4000-8000-00000000000b' };
    const b = { ...msg(1), id: '00000000-0000-4000-8000-00000000000a', text: 'message 0' };
    expect(mergeMessages([a], [b]).map((m) => m.id)).toEqual([b.id, a.id]);
  });

  it('starts from the first snapshot and knows whether older messages exist', () => {
    expect(applySnapshot(emptyLog, range(1, 3)).hasOlder).toBe(false);
    const full = applySnapshot(emptyLog, range(1, CHAT_PAGE_SIZE));
    expect(full.hasOlder).toBe(true);
    expect(full.messages).toHaveLength(CHAT_PAGE_SIZE);
  });

  it('keeps loaded history and messages that scrolled out of the latest page', () => {
    let log = applySnapshot(emptyLog, range(101, 200));
    log = applyOlder(log, range(1, 100));
    expect(log.hasOlder).toBe(true);
    log = applySnapshot(log, range(106, 205));
    expect(numbers(log.messages)).toEqual(numbers(range(1, 205)));
  });

  it('after a reconnect, adds what was missed without losing or repeating anything', () => {
    let log = applySnapshot(emptyLog, range(1, 50));
    log = applySnapshot(log, range(1, 60));
    expect(numbers(log.messages)).toEqual(numbers(range(1, 60)));
    log = applySnapshot(log, range(31, 130));
    expect(numbers(log.messages)).toEqual(numbers(range(1, 130)));
  });

  it('restarts from the snapshot when more than a page was missed, rather than leave a gap', () => {
    let log = applySnapshot(emptyLog, range(1, 50));
    log = applySnapshot(log, range(201, 300));
    expect(numbers(log.messages)).toEqual(numbers(range(201, 300)));
    expect(log.hasOlder).toBe(true);
    log = applyOlder(log, range(101, 200));
    expect(numbers(log.messages)).toEqual(numbers(range(101, 300)));
  });

  it('shows an own message at once and once only when the stream brings it', () => {
    let log = applySnapshot(emptyLog, range(1, 5));
    log = applySent(log, msg(6));
    expect(numbers(log.messages)).toEqual([1, 2, 3, 4, 5, 6]);
    log = applySnapshot(log, range(1, 6));
    expect(numbers(log.messages)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('an own message does not hide a gap from the reconnect check', () => {
    let log = applySnapshot(emptyLog, range(1, 50));
    log = applySent(log, msg(400));
    log = applySnapshot(log, range(201, 300));
    expect(numbers(log.messages)).toEqual([...numbers(range(201, 300)), 400]);
    expect(log.hasOlder).toBe(true);
  });

  it('leaves out the messages an operator hid, wherever they are held', () => {
    const log = applyOlder(applySnapshot(emptyLog, range(101, 200)), range(1, 100));
    expect(numbers(withoutHidden(log.messages, [msg(7).id, msg(150).id]))).toEqual([
      ...numbers(range(1, 6)),
      ...numbers(range(8, 149)),
      ...numbers(range(151, 200)),
    ]);
    expect(withoutHidden(log.messages, [])).toBe(log.messages);
  });

  it('says there is nothing older once history runs out', () => {
    const log = applyOlder(applySnapshot(emptyLog, range(101, 200)), range(61, 100));
    expect(log.hasOlder).toBe(false);
    expect(log.messages).toHaveLength(140);
  });
});
