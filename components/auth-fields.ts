import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import type { AuthField } from "./auth-form";

/** The fields every new account is made with, the same on /setup and on an invitation. */
export const YOUR_NAME: AuthField = { name: "name", label: "Your name", autoComplete: "name", required: false };

export const NEW_PASSWORD: AuthField[] = [
  {
    name: "password",
    label: "Password",
    type: "password",
    autoComplete: "new-password",
    hint: `At least ${MIN_PASSWORD_LENGTH} characters.`,
  },
  { name: "confirm", label: "Password again", type: "password", autoComplete: "new-password" },
];
