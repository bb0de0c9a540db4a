"use client";

import { useState, useSyncExternalStore } from "react";
import { createShareAction, revokeShareAction } from "@/app/debates/share-actions";

const noSubscribe = () => () => {};

/** The link as the reader will paste it: this site's address in full (the server renders the path until the page is live). */
export function useOrigin() {
  return useSyncExternalStore(noSubscribe, () => window.location.origin, () => "");
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

/** Read-only links for people without an account, e.g. an editor outside the newsroom. */
export function ShareControls({ debateId, tokens }: { debateId: string; tokens: string[] }) {
  const origin = useOrigin();
  return (
    <details className="text-sm" data-testid="share-controls">
      <summary className="cursor-pointer text-black/70">Share a read-only link{tokens.length ? ` (${tokens.length} active)` : ""}</summary>
      <div className="mt-2 space-y-2">
        {tokens.map((t) => {
          const url = `${origin}/share/${t}`;
          return (
            <form key={t} action={revokeShareAction} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="token" value={t} />
              <input type="hidden" name="debateId" value={debateId} />
              <code data-testid="share-link" className="min-w-0 break-all rounded bg-black/5 px-1.5 py-0.5">
                {url}
              </code>
              <CopyButton text={url} />
              <button type="submit" className="text-red-800 underline">
                Revoke
              </button>
            </form>
          );
        })}
        <form action={createShareAction}>
          <input type="hidden" name="debateId" value={debateId} />
          <button type="submit" className="rounded-md border border-black/20 bg-white px-3 py-1 hover:bg-black/5">
            Create a link
          </button>
        </form>
      </div>
    </details>
  );
}
