// Where a stored picture is served, without the schemas (in images.ts): the first view needs it without zod
// (issue 32).
import type { StoredImage } from './images.js';

/** Where one stored size is served; immutable, since an id never gets other content. */
export const imageUrl = (id: string, width: number) => `/images/${id}-${width}.webp`;

/** `srcset` for every stored size of a picture. */
export const imageSrcSet = (image: StoredImage) =>
  image.widths.map((width) => `${imageUrl(image.id, width)} ${width}w`).join(', ');

/** One picture to show for a kitchen or dish: its smallest stored size, or the cook's link. */
export const pictureSrc = (picture: { imageLink: string | null; image: StoredImage | null }) =>
  picture.image
    ? imageUrl(picture.image.id, picture.image.widths[0] ?? picture.image.width)
    : (picture.imageLink ?? '');
