import type { z } from 'zod';
import type { errorBody, pageLinks, paged } from './responses/blocks';

export type PageLinks = z.infer<typeof pageLinks>;

/** The list envelope every paged endpoint answers. */
export type Paged<T> = z.infer<ReturnType<typeof paged<z.ZodType<T>>>>;

export type ApiErrorBody = z.infer<typeof errorBody>;
