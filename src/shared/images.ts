import { z } from 'zod';
import { imageLink } from './fields.js';
import { t } from './i18n/translator.js';

export * from './image-urls.js';

/** The widths an uploaded picture is stored at (a smaller picture stops at its own width). */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;
/** The largest upload the server reads. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_MB = MAX_UPLOAD_BYTES / (1024 * 1024);

/** A picture a cook uploaded, as the server stored it: its id and the widths it can be fetched at. */
export const StoredImage = z.object({
  id: z.string().uuid(),
  /** The largest stored size; smaller ones keep its aspect ratio. */
  width: z.number().int(),
  height: z.number().int(),
  widths: z.array(z.number().int()),
});
export type StoredImage = z.infer<typeof StoredImage>;

/**
 * The fields that choose a kitchen's or dish's picture: a link the cook types (the spec's field) or an uploaded
 * picture's id. Exactly one is stored; `picturePatchProblem` says what is wrong with a choice.
 */
export const pictureFields = (linkLabel: string) => ({
  imageLink: imageLink(linkLabel).optional(),
  imageId: z
    .string({ error: () => t('Upload a photo first') })
    .uuid({ error: () => t('Upload a photo first') })
    .optional(),
});

type PictureChoice = { imageLink?: string | undefined; imageId?: string | undefined };

/** Adds an issue when both a link and an upload are given, or (when `required`) neither. */
export function checkPictureChoice(
  value: PictureChoice,
  ctx: z.RefinementCtx,
  linkLabel: string,
  required: boolean,
): void {
  if (value.imageLink !== undefined && value.imageId !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['imageId'],
      message: t('Choose either an uploaded photo or a link, not both'),
    });
  else if (required && value.imageLink === undefined && value.imageId === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['imageLink'],
      message: t('{label} is required', { label: t(linkLabel) }),
    });
}
