import sharp from 'sharp';

/** A photo-like picture (a gradient, so it compresses as a photo would) in `format`, made with sharp. */
export async function makePicture(
  format: 'jpeg' | 'png' | 'webp' | 'avif',
  width = 800,
  height = 600,
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x + y) * 7) % 256;
    }
  // AVIF's encoder at its default effort took most of a 30-second test on a loaded 2-core machine: the fastest
  // effort makes the same kind of file.
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format, format === 'avif' ? { effort: 0 } : {})
    .toBuffer();
}

/** A phone photo: a JPEG `width` × `height` as stored, turned by its EXIF orientation 6, with a GPS position. */
export async function makePhoneJpeg(width = 600, height = 400): Promise<Buffer> {
  return sharp(await makePicture('jpeg', width, height))
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 24/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 3/1',
      },
    })
    .jpeg()
    .toBuffer();
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) =>
  (bytes.reduce((c, b) => (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

/** An image bomb: a small PNG whose header claims `width` × `height` pixels (its IHDR rewritten, CRC fixed). */
export async function makeBombPng(width = 30_000, height = 30_000): Promise<Buffer> {
  const png = Buffer.from(await makePicture('png', 16, 16));
  // The IHDR chunk: length (4) at 8, type at 12, data at 16 (width, height, …), CRC after its 13 bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
