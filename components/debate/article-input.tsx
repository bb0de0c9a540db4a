"use client";

import { useState, useTransition } from "react";
import { fetchArticleAction, type FetchArticleState } from "@/app/debates/article-actions";
import { ARTICLE_MAX_CHARS } from "@/lib/article/limits";

/**
 * The article fields of the new-debate form for the ZoFia protocol, self-contained so the form
 * can mount it under its protocol picker. It renders inputs only (no <form>), named for what the
 * debate request reads:
 *   - `url`       the article's address (optional; stored as the claim's appearance URL)
 *   - `title`     the headline (stored as claims.metadata.title)
 *   - `claim`     the article body, at most 20,000 characters (ZoFia's limit; other protocols keep 2,000)
 *   - `claimDate` the publication date, YYYY-MM-DD; web evidence is cut off the day before
 * "Fetch from address" fills title, body and date from the page (lib/article through the server
 * action, same address rules as URL ingestion); everything stays editable before the debate starts.
 */
export type ArticleInputProps = {
  /** Values to show again after the server refused the form (its `values`). */
  initial?: { url?: string; title?: string; claim?: string; claimDate?: string };
  /** The server's refusal for one of this component's fields (`field` is url, title, claim or claimDate). */
  error?: { field?: string; message: string };
  /** Replaceable for tests and stories; default: the server action. */
  fetchArticle?: (url: string) => Promise<FetchArticleState>;
  maxChars?: number;
};

const fmt = (n: number) => n.toLocaleString("en-US");

export function ArticleInput({
  initial = {},
  error,
  fetchArticle = fetchArticleAction,
  maxChars = ARTICLE_MAX_CHARS,
}: ArticleInputProps) {
  const [url, setUrl] = useState(initial.url ?? "");
  const [title, setTitle] = useState(initial.title ?? "");
  const [body, setBody] = useState(initial.claim ?? "");
  const [date, setDate] = useState(initial.claimDate ?? "");
  const [fetched, setFetched] = useState<FetchArticleState | null>(null);
  const [pending, startFetch] = useTransition();

  const chars = body.trim().length;
  const over = chars > maxChars;
  const fieldError = (f: string) => (error && error.field === f ? error.message : null);

  function onFetch() {
    startFetch(async () => {
      const r = await fetchArticle(url);
      setFetched(r);
      if (!r.ok) return;
      setTitle(r.title);
      setBody(r.text);
      if (r.publishedDate) setDate(r.publishedDate);
    });
  }

  return (
    <div className="space-y-5" data-testid="article-input">
      <div>
        <label htmlFor="article-url" className="block font-medium">
          Article address <span className="font-normal text-black/60">(optional)</span>
        </label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id="article-url"
            name="url"
            type="url"
            inputMode="url"
            placeholder="https://news.example.com/story"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              // The last fetch's message is about the address that was fetched, not this one.
              setFetched(null);
            }}
            onKeyDown={(e) => {
              // Enter fetches instead of submitting the whole debate form by accident.
              if (e.key === "Enter") {
                e.preventDefault();
                if (url.trim() && !pending) onFetch();
              }
            }}
            aria-describedby="article-url-help article-fetch-status"
            className="min-w-0 flex-1 rounded-md border border-black/20 bg-white p-2"
          />
          <button
            type="button"
            onClick={onFetch}
            disabled={pending || !url.trim()}
            className="shrink-0 rounded-md border border-black/20 bg-white px-3 py-2 text-sm font-medium hover:bg-black/5 disabled:opacity-60"
          >
            {pending ? "Fetching…" : "Fetch from address"}
          </button>
        </div>
        <p id="article-url-help" className="mt-1 text-xs text-black/60">
          Fetching fills in the headline, text and date from the page; check them before starting. Or paste the article
          below.
        </p>
        <div id="article-fetch-status" aria-live="polite">
          {fetched && !fetched.ok ? (
            <p
              role="alert"
              className="mt-2 rounded-md bg-red-50 p-2 text-sm text-red-900"
              data-testid="article-fetch-error"
            >
              {fetched.error}
            </p>
          ) : null}
          {fetched && fetched.ok ? (
            <div
              className="mt-2 space-y-1 rounded-md bg-emerald-50 p-2 text-sm text-emerald-950"
              data-testid="article-fetch-done"
            >
              <p>
                Read {fmt(fetched.text.length)} characters from {hostOf(fetched.finalUrl)}
                {fetched.siteName ? ` (${fetched.siteName})` : ""}.
              </p>
              {fetched.truncated ? (
                <p className="font-medium text-amber-900">
                  The article has {fmt(fetched.originalChars)} characters; only the first {fmt(fetched.text.length)}{" "}
                  were kept (the limit is {fmt(maxChars)}). Check where it ends.
                </p>
              ) : null}
              {!fetched.publishedDate ? (
                <p className="font-medium text-amber-900">
                  The page does not state when it was published: enter the date below.
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
        {fieldError("url") ? <FieldMessage id="article-url-error" text={fieldError("url")!} /> : null}
      </div>

      <div>
        <label htmlFor="article-title" className="block font-medium">
          Headline
        </label>
        <input
          id="article-title"
          name="title"
          type="text"
          maxLength={500}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          className="mt-1 w-full rounded-md border border-black/20 bg-white p-2"
        />
        {fieldError("title") ? <FieldMessage id="article-title-error" text={fieldError("title")!} /> : null}
      </div>

      <div>
        <label htmlFor="article-body" className="block font-medium">
          Article text
        </label>
        <textarea
          id="article-body"
          name="claim"
          required
          rows={12}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          aria-invalid={over || !!fieldError("claim")}
          aria-describedby="article-body-help article-body-error"
          className={`mt-1 w-full rounded-md border bg-white p-2 text-sm leading-relaxed ${over ? "border-red-700" : "border-black/20"}`}
        />
        <p id="article-body-help" className="mt-1 text-xs text-black/60">
          <span
            data-testid="article-count"
            aria-live="polite"
            className={over ? "font-medium text-red-800" : undefined}
          >
            {fmt(chars)} / {fmt(maxChars)} characters
          </span>
          . The whole article as published, without comments or related links.
        </p>
        {over ? (
          <FieldMessage
            id="article-body-error"
            text={`The article is ${fmt(chars - maxChars)} ${chars - maxChars === 1 ? "character" : "characters"} over the ${fmt(maxChars)}-character limit; shorten it or keep the first part.`}
          />
        ) : fieldError("claim") ? (
          <FieldMessage id="article-body-error" text={fieldError("claim")!} />
        ) : null}
      </div>

      <div>
        <label htmlFor="article-date" className="block font-medium">
          Publication date
        </label>
        <input
          id="article-date"
          name="claimDate"
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          aria-describedby="article-date-help"
          className="mt-1 rounded-md border border-black/20 bg-white p-2"
        />
        <p id="article-date-help" className="mt-1 text-xs text-black/60">
          Web evidence is taken only from before this day, so later fact-checks of the story cannot decide it.
        </p>
        {fieldError("claimDate") ? <FieldMessage id="article-date-error" text={fieldError("claimDate")!} /> : null}
      </div>
    </div>
  );
}

function FieldMessage({ id, text }: { id: string; text: string }) {
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-800">
      {text}
    </p>
  );
}

function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
