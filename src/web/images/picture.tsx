import { Image, type ImageProps } from '@mantine/core';
import { imageSrcSet, imageUrl, type StoredImage } from '../../shared/images.js';
import { FALLBACK_IMAGE } from '../lib/images.js';

/** How wide a picture is shown in the kitchens' and menu's grids (1, 2 or 3 columns, as SimpleGrid lays them). */
export const GRID_SIZES = '(min-width: 62em) 33vw, (min-width: 48em) 50vw, 100vw';

/**
 * A kitchen's or dish's picture: an uploaded one at the size that fits (`srcset`/`sizes`, so a phone loads the
 * small one), or the cook's link. Width and height are set so nothing moves while it loads.
 */
export function Picture({
  picture,
  alt,
  sizes,
  loading = 'lazy',
  ...props
}: {
  picture: { imageLink: string | null; image: StoredImage | null };
  alt: string;
  sizes: string;
  /** Lazy by default: a long menu on a phone loads only the pictures scrolled to. */
  loading?: 'lazy' | 'eager';
} & Omit<ImageProps, 'src' | 'alt'>) {
  const { image } = picture;
  if (!image)
    return (
      <Image src={picture.imageLink} fallbackSrc={FALLBACK_IMAGE} alt={alt} loading={loading} {...props} />
    );
  return (
    <Image
      src={imageUrl(image.id, image.widths[1] ?? image.width)}
      srcSet={imageSrcSet(image)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      fallbackSrc={FALLBACK_IMAGE}
      alt={alt}
      loading={loading}
      {...props}
    />
  );
}
