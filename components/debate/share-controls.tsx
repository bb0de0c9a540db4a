"use client";

import { useState, useSyncExternalStore } from "react";
import { createShareAction, revokeShareAction } from "@/app/debates/share-actions";

const noSubscribe = () => () => {};

/** The link as the reader will paste it: this site's address in full (the server renders the path until the page is live). */
export function useOrigin() {
  return useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => "",
  );
}

export function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      className="rounded-md border border-black/20 bg-white px-2 py-0.5 hover:bg-black/5"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setState("copied");
        } catch {
          // Clipboard refused (an insecure page, or permission denied): the link stays selectable.
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2000);
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select the link" : "Copy link"}
    </button>
  );
}

type ShareAction = (form: FormData) => void | Promise<void>;

/** An active link, and whether this viewer may revoke it (its maker, or an admin). */
export type ShareLink = { token: string; revocable: boolean };

/**
 * Read-only links to one thing (a debate, a comparison): each active link with Copy (and Revoke
 * where the viewer may), and a button for a new one. The actions receive the token and
 * `{field: id}` as form fields. `base` is PUBLIC_URL when set; otherwise the page's own origin.
 */
export function ShareLinks(p: {
  field: string;
  id: string;
  path: string;
  tokens: ShareLink[];
  base?: string | null;
  create: ShareAction;
  revoke: ShareAction;
  summary: string;
  testId: string;
  linkTestId: string;
  /** Choices sent with "Create a link" (a comparison's "include the transcripts"). */
  createOptions?: React.ReactNode;
  /** A word on what a link opens, by token. */
  notes?: Record<string, string>;
}) {
  const pageOrigin = useOrigin();
  const origin = p.base ?? pageOrigin;
  return (
    <details className="text-sm" data-testid={p.testId}>
      <summary className="cursor-pointer text-black/70">
        {p.summary}
        {p.tokens.length ? ` (${p.tokens.length} active)` : ""}
      </summary>
      <div className="mt-2 space-y-2">
        {p.tokens.map(({ token: t, revocable }) => {
          const url = `${origin}${p.path}${t}`;
          return (
            <form key={t} action={p.revoke} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="token" value={t} />
              <input type="hidden" name={p.field} value={p.id} />
              <code data-testid={p.linkTestId} className="min-w-0 break-all rounded bg-black/5 px-1.5 py-0.5">
                {url}
              </code>
              {p.notes?.[t] ? <span className="text-xs text-black/60">{p.notes[t]}</span> : null}
              <CopyButton text={url} />
              {revocable ? (
                <button type="submit" className="text-red-800 underline">
                  Revoke
                </button>
              ) : null}
            </form>
          );
        })}
        <form action={p.create} className="space-y-2">
          <input type="hidden" name={p.field} value={p.id} />
          {p.createOptions}
          <button type="submit" className="rounded-md border border-black/20 bg-white px-3 py-1 hover:bg-black/5">
            Create a link
          </button>
        </form>
      </div>
    </details>
  );
}

/** Read-only links for people without an account, e.g. an editor outside the newsroom. */
export function ShareControls({
  debateId,
  tokens,
  base,
}: {
  debateId: string;
  tokens: ShareLink[];
  base?: string | null;
}) {
  return (
    <ShareLinks
      field="debateId"
      id={debateId}
      path="/share/"
      tokens={tokens}
      base={base}
      create={createShareAction}
      revoke={revokeShareAction}
      summary="Share a read-only link"
      testId="share-controls"
      linkTestId="share-link"
    />
  );
}
