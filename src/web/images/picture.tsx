import { Image, type ImageProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { imageSrcSet, imageUrl } from '../../shared/image-urls.js';
import type { StoredImage } from '../../shared/images.js';
import { FALLBACK_IMAGE } from '../lib/images.js';

/** How wide a picture is shown in the kitchens' and menu's grids (1, 2 or 3 columns, as SimpleGrid lays them). */
export const GRID_SIZES = '(min-width: 62em) 33vw, (min-width: 48em) 50vw, 100vw';
/** How many pictures those grids show in their first row at most (3 columns on a large screen). */
export const FIRST_ROW = 3;

/**
 * A kitchen's or dish's picture: an uploaded one at the size that fits (`srcset`/`sizes`, so a phone loads the
 * small one), or the cook's link. Width and height are set so nothing moves while it loads.
 */
export function Picture({
  picture,
  alt,
  sizes,
  loading = 'lazy',
  fetchPriority,
  ...props
}: {
  picture: { imageLink: string | null; image: StoredImage | null };
  alt: string;
  sizes: string;
  /** Lazy by default: a long menu on a phone loads only the pictures scrolled to. */
  loading?: 'lazy' | 'eager';
  /** 'high' for the picture that is the page's largest paint: fetched before the scripts, not after. */
  fetchPriority?: 'high';
} & Omit<ImageProps, 'src' | 'alt'>) {
  const { image } = picture;
  const ref = useRef<HTMLImageElement>(null);
  // A server-rendered picture may have failed to load before React was there to hear it: check once hydrated.
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const img = ref.current;
    // complete with no width is broken, or an SVG without a size: decode() tells them apart.
    if (img?.complete && img.naturalWidth === 0 && img.getAttribute('src'))
      img.decode().catch(() => setFailed(true));
  }, []);
  if (failed) return <Image ref={ref} src={FALLBACK_IMAGE} alt={alt} {...props} />;
  if (!image)
    return (
      <Image
        ref={ref}
        src={picture.imageLink}
        fallbackSrc={FALLBACK_IMAGE}
        alt={alt}
        loading={loading}
        fetchPriority={fetchPriority}
        {...props}
      />
    );
  return (
    <Image
      ref={ref}
      src={imageUrl(image.id, image.widths[1] ?? image.width)}
      srcSet={imageSrcSet(image)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      fallbackSrc={FALLBACK_IMAGE}
      alt={alt}
      loading={loading}
      fetchPriority={fetchPriority}
      {...props}
    />
  );
}
