"use client";

import { startTransition, useActionState, useCallback, useEffect, useRef, type FormEvent } from "react";
import type { FormState } from "@/lib/forms/state";

/**
 * The one way a form in Counterpoint posts to a server action. React resets a form after its
 * action runs, which after a refusal would blank the fields the page does not control, untick
 * checkboxes whose card still looks chosen, and clear chosen files. Here the submit is taken over:
 * the action runs in a transition with the form's data, and the form is left exactly as the user
 * had it (files included). Without JavaScript the form still posts to the action (`action`), and
 * the state's `values`/`lists`/`files` let the page fill it in again.
 */
export function useServerForm<S extends FormState>(
  action: (prev: S, form: FormData) => Promise<S>,
  initial: S,
  /** Forms that stay on the page after success (add a URL, invite someone) empty themselves for the next entry. */
  { clearOnSuccess = false }: { clearOnSuccess?: boolean } = {},
) {
  const [state, dispatch, pending] = useActionState<S, FormData>(
    action as (prev: Awaited<S>, form: FormData) => Promise<S>,
    initial as Awaited<S>,
  );
  const form = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    if (clearOnSuccess && state !== initial && !state.error) form.current?.reset();
  }, [state, initial, clearOnSuccess]);
  const onSubmit = useCallback(
    (e: FormEvent<HTMLFormElement>) => {
      form.current = e.currentTarget;
      e.preventDefault();
      const submitter = (e.nativeEvent as SubmitEvent).submitter;
      const data = new FormData(e.currentTarget, submitter instanceof HTMLElement ? submitter : null);
      startTransition(() => dispatch(data));
    },
    [dispatch],
  );
  return { state, pending, formProps: { action: dispatch, onSubmit } };
}
