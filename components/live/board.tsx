"use client";

import Link from "next/link";
import { useActionState, useEffect, useMemo, useState } from "react";
import { cardAction, type LiveFormState } from "@/app/live/actions";
import { STATE_WORDS, unreadableWords, type LiveCardView } from "@/lib/live/view";

/** Newest time code first; a card keeps its place when it changes. */
function order(cards: Iterable<LiveCardView>): LiveCardView[] {
  return [...cards].sort((a, b) => b.atMs - a.atMs || b.lineSeq - a.lineSeq || b.sentenceIndex - a.sentenceIndex);
}

function CardActions({
  card,
  sessionId,
  mayAct,
  mayDraft,
}: {
  card: LiveCardView;
  sessionId: string;
  mayAct: boolean;
  mayDraft: boolean;
}) {
  const [state, action, pending] = useActionState<LiveFormState, FormData>(cardAction, {});
  const button = "rounded border border-black/40 px-2 py-1 text-sm disabled:opacity-50";
  const finished = card.debate?.status === "completed";
  return (
    <form action={action} className="flex flex-wrap gap-2">
      <input type="hidden" name="sessionId" value={sessionId} />
      <input type="hidden" name="cardId" value={card.id} />
      {mayAct && !card.debate && (
        <button name="action" value="debate" disabled={pending} className={button}>
          Start a debate
        </button>
      )}
      {mayAct && card.match && card.state !== "attached" && (
        <button name="action" value="attach" disabled={pending} className={button}>
          Attach the earlier check
        </button>
      )}
      {mayAct && card.state !== "dismissed" && (
        <button name="action" value="dismiss" disabled={pending} className={button}>
          Dismiss
        </button>
      )}
      {mayDraft && finished && !card.factCheckId && (
        <button name="action" value="draft" disabled={pending} className={button}>
          Send to an editor
        </button>
      )}
      {state.error && (
        <p role="alert" className="w-full text-sm text-red-800">
          {state.error}
        </p>
      )}
    </form>
  );
}

export function LiveBoard(props: {
  sessionId: string;
  initial: LiveCardView[];
  rev: number;
  lines: number;
  mayAct: boolean;
  mayDraft: boolean;
}) {
  const [cards, setCards] = useState(() => new Map(props.initial.map((c) => [c.id, c])));
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    // Resumes after the revision the page was rendered at; EventSource sends Last-Event-ID on reconnects.
    const es = new EventSource(`/api/v1/live/${props.sessionId}/events?after=${props.rev}`);
    es.addEventListener("ready", () => setConnected(true));
    es.addEventListener("cards", (e) => {
      const { cards: changed } = JSON.parse((e as MessageEvent<string>).data) as { cards: LiveCardView[] };
      setCards((prev) => {
        const next = new Map(prev);
        for (const c of changed) next.set(c.id, c);
        return next;
      });
    });
    es.onerror = () => setConnected(false);
    return () => es.close();
  }, [props.sessionId, props.rev]);
  const list = useMemo(() => order(cards.values()), [cards]);
  const firstOf = (c: LiveCardView) => (c.groupOf ? cards.get(c.groupOf) : undefined);
  return (
    <section aria-labelledby="cards" className="space-y-3">
      <h2 id="cards" className="text-lg font-semibold">
        Cards ({list.length}){" "}
        <span className="text-sm font-normal text-black/60" aria-live="polite">
          {connected ? "· live" : "· connecting…"}
        </span>
      </h2>
      {!list.length && <p className="text-sm text-black/60">No check-worthy sentence yet.</p>}
      <ol className="space-y-3" data-testid="live-cards">
        {list.map((c) => (
          <li
            key={c.id}
            data-testid="live-card"
            className={`rounded border border-black/15 p-3 ${c.state === "dismissed" ? "bg-black/5" : ""}`}
          >
            {c.debate?.verdict ? (
              <p className="font-semibold">
                Debate verdict: {c.debate.verdict}{" "}
                <Link href={`/debates/${c.debate.id}`} className="text-sm font-normal underline">
                  the debate
                </Link>
              </p>
            ) : null}
            {c.checkedBefore ? (
              <p className="font-semibold" data-testid="checked-before">
                {c.match?.url ? (
                  <a href={c.match.url} className="underline" rel="noreferrer noopener" target="_blank">
                    {c.checkedBefore}
                  </a>
                ) : (
                  c.checkedBefore
                )}
              </p>
            ) : c.unreadable ? (
              <p className="font-semibold" data-testid="unreadable">
                {unreadableWords(c.unreadable)}
              </p>
            ) : !c.debate?.verdict ? (
              <p className="text-sm text-black/60">Not checked before</p>
            ) : null}
            <blockquote className="mt-1 break-words">“{c.sentence}”</blockquote>
            <p className="mt-1 text-sm text-black/60">
              {c.speaker ?? "Unknown speaker"} · {c.timeCode}
              {c.unreadable ? " · not scored" : ` · check-worthiness ${c.score.toFixed(2)}`}
              {c.repeats > 1 ? ` · said ${c.repeats} times` : ""}
              {firstOf(c) ? ` · repeat of the claim at ${firstOf(c)!.timeCode}` : c.groupOf ? " · a repeat" : ""} ·{" "}
              {STATE_WORDS[c.state]}
              {c.debate && !c.debate.verdict ? ` (${c.debate.status})` : ""}
            </p>
            {(props.mayAct || props.mayDraft) && (
              <div className="mt-2">
                <CardActions card={c} sessionId={props.sessionId} mayAct={props.mayAct} mayDraft={props.mayDraft} />
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
