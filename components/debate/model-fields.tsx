"use client";

import type { ReactNode } from "react";
import { ModelSelect } from "./model-select";

/** One model picker per role the chosen method runs (`model_<role>`), defaulting to the server's configured models. */
export function ModelFields({
  roles,
  models,
  defaults,
  values,
  renderError,
}: {
  roles: readonly string[];
  models: string[];
  defaults: { default: string; roles: Record<string, string> };
  values: Record<string, string>;
  renderError: (field: string) => ReactNode;
}) {
  return (
    <fieldset>
      <legend className="font-medium">Models</legend>
      <p id="models-help" className="text-xs text-black/60">
        The models this server offers. An admin adds one with WEB_MODELS (or DEFAULT_MODEL / ROLE_MODELS) in the
        server&apos;s environment.
      </p>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {roles.map((role) => (
          <div key={role} className="min-w-0">
            <label htmlFor={`model_${role}`} className="block text-sm capitalize">
              {role.replace("-", " ")}
            </label>
            <ModelSelect
              id={`model_${role}`}
              name={`model_${role}`}
              allowed={models}
              fallback={defaults.roles[role] || defaults.default || undefined}
              defaultValue={values[`model_${role}`]}
              describedBy="models-help"
              className="mt-1 w-full max-w-full rounded-md border border-black/20 bg-white p-2"
            />
            {renderError(`models.${role}`)}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
