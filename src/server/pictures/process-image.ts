import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { IMAGE_WIDTHS, MAX_UPLOAD_MB } from '../../shared/images.js';
import { HttpError } from '../lib/errors.js';
import type { Values } from '../../shared/i18n/messages.js';
import { msg } from '../../shared/i18n/translator.js';

// What the server reads (JPEG, PNG, WebP or AVIF): the type comes from the bytes, whatever the file is called.
/** A photo from any phone fits; a small file claiming more pixels (an image bomb) is refused unread. */
export const MAX_PIXELS = 50_000_000;
const MAX_SIDE = 12_000;
const QUALITY = 78;

export interface ImageVariant {
  width: number;
  height: number;
  contentType: string;
  bytes: Buffer;
}

export interface ProcessedImage {
  width: number;
  height: number;
  variants: ImageVariant[];
}

const refused = (status: number, code: string, message: string, values?: Values) =>
  new HttpError(status, code, message, 'file', undefined, values);

// The formats are named in the message: 'or' is a word of each language.
const UNREADABLE = {
  file: msg('This file is not a picture we can read: upload a JPEG, PNG, WebP or AVIF photo'),
  svg: msg('An SVG drawing is not a picture we can read: upload a JPEG, PNG, WebP or AVIF photo'),
  heic: msg('A HEIC photo is not a picture we can read: upload a JPEG, PNG, WebP or AVIF photo'),
} as const;

export const unsupportedPicture = (what: keyof typeof UNREADABLE = 'file') =>
  refused(415, 'UNSUPPORTED_IMAGE', UNREADABLE[what]);
export const pictureTooLarge = () =>
  refused(413, 'IMAGE_TOO_LARGE', msg('The picture is larger than {size} MB'), { size: MAX_UPLOAD_MB });

/** The formats sharp recognises that we accept; `heif` only where its codec is AV1 (AVIF). */
async function checkFormat(bytes: Buffer, trusted: boolean): Promise<void> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupportedPicture();
  }
  const { format, compression, width, height } = meta;
  // SVG is a document that can carry scripts and links; only our own shipped demo pictures are drawn in it.
  if (format === 'svg' && !trusted) throw unsupportedPicture('svg');
  const readable =
    ['jpeg', 'png', 'webp'].includes(format) || (format === 'heif' && compression === 'av1') || trusted;
  if (!readable) throw unsupportedPicture(compression === 'hevc' ? 'heic' : undefined);
  if (width * height > MAX_PIXELS || width > MAX_SIDE || height > MAX_SIDE)
    throw refused(
      413,
      'IMAGE_TOO_LARGE',
      msg('The picture is {width} × {height} pixels: at most {megapixels} megapixels'),
      { width: String(width), height: String(height), megapixels: MAX_PIXELS / 1_000_000 },
    );
}

/** The sizes to store for a picture `width` wide: the standard ones below it, and at most 1280. */
export function variantWidths(width: number): number[] {
  const largest = Math.min(width, IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1] ?? width);
  return [...IMAGE_WIDTHS.filter((w) => w < largest), largest];
}

/**
 * Checks an uploaded picture by its content and turns it into WebP sizes: upright (EXIF orientation applied),
 * in sRGB, with no metadata at all (a phone photo's EXIF holds the GPS position of the cook's home: sharp keeps
 * none unless asked). Throws an HttpError (4xx, field `file`) for anything it refuses. `trusted` lets our own
 * shipped SVG demo pictures through.
 */
export async function processImage(bytes: Buffer, { trusted = false } = {}): Promise<ProcessedImage> {
  await checkFormat(bytes, trusted);
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once, at most 1280 wide (and twice as tall), then each size made from these pixels. `density` only
    // touches our demo drawings (twice their nominal size: 800 px for a 400-wide drawing, cheap at first start).
    decoded = await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'truncated', density: 144 })
      .rotate()
      .resize({ width: 1280, height: 2560, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw refused(400, 'DAMAGED_IMAGE', msg('The picture is damaged or incomplete: please upload it again'));
  }
  const { info } = decoded;
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const variants = await Promise.all(
    variantWidths(info.width).map(async (width) => {
      const { data, info: out } = await sharp(decoded.data, { raw })
        .resize({ width })
        .webp({ quality: QUALITY })
        .toBuffer({ resolveWithObject: true });
      return { width, height: out.height, contentType: 'image/webp', bytes: data };
    }),
  );
  return { width: info.width, height: info.height, variants };
}
