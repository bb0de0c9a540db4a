/*
 * The largest request body any page's form (a server action) or JSON route takes, in one place:
 * next.config.ts gives it to Next (serverActions.bodySizeLimit) and sizes the proxy's copy of the
 * body just above it, and the request gate (lib/auth/request-gate.ts) answers 413 with words for
 * anything larger, before Next would cut the body and fail with a 500. Each form's own fields stay
 * well below it (/check-text's file: 900 KB), so the action itself can say "over 900 KB" beside the
 * field for anything a person is likely to pick. Large files go to the streamed upload routes.
 */
export const BODY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The proxy's copy of a body is cut at this size. One socket read (64 KiB) above the limit, so a
 * body the gate reads as over BODY_MAX_BYTES was really over it, never a copy cut short.
 */
export const PROXY_BODY_COPY_BYTES = BODY_MAX_BYTES + 64 * 1024;

export function bodyTooLargeMessage(bytes: number | null): string {
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${bytes === null ? "The request" : `The request's ${mb(bytes)}`} is over the ${mb(BODY_MAX_BYTES)} a form or API request here may send. Choose a smaller file (each form says its limit beside the field; /check-text takes files up to 900 KB), paste the part you need, or send large files to the upload routes.`;
}
