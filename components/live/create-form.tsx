"use client";

import { useActionState } from "react";
import { createLiveAction, type LiveFormState } from "@/app/live/actions";

export function CreateLiveForm(props: {
  methods: Array<{ name: string; title: string }>;
  defaultMethod: string;
  defaultThreshold: number;
}) {
  const [state, action, pending] = useActionState<LiveFormState, FormData>(createLiveAction, {});
  const field = "mt-1 block w-full rounded border border-black/30 px-2 py-1";
  return (
    <form action={action} className="space-y-3">
      <label className="block text-sm">
        Event
        <input name="title" required maxLength={200} className={field} placeholder="Leaders' debate, 3 June" />
      </label>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block text-sm">
          Method for debates
          <select name="method" defaultValue={props.defaultMethod} className={field}>
            {props.methods.map((m) => (
              <option key={m.name} value={m.name}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          Corpus (optional)
          <input name="corpus" maxLength={64} className={field} />
        </label>
        <label className="block text-sm">
          Cards from score
          <input
            name="threshold"
            type="number"
            min={0}
            max={1}
            step={0.01}
            defaultValue={props.defaultThreshold.toFixed(2)}
            className={field}
          />
        </label>
      </div>
      {state.error && (
        <p role="alert" className="text-sm text-red-800">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-black px-3 py-1.5 text-sm text-white">
        {pending ? "Opening…" : "Open the session"}
      </button>
    </form>
  );
}
