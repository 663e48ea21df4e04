export interface PageLinks {
  first: string | null;
  last: string | null;
  prev: string | null;
  next: string | null;
}

/** The list envelope every paged endpoint answers. */
export interface Paged<T> {
  data: T[];
  links: PageLinks;
  from: number | null;
  to: number | null;
  total: number;
  current_page: number;
  last_page: number;
  per_page: number;
}

export interface ApiErrorBody {
  message: string;
  error?: string | Record<string, string[]>;
}
