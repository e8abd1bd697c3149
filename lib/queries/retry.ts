/** Retry a failed query twice, but never a 4xx: a bad filter or an invalid cursor will not change on retry. */
export function retryUnlessClientError(count: number, error: unknown) {
  const status = (error as { status?: number }).status ?? 0;
  return count < 2 && !(status >= 400 && status < 500);
}
