import path from "node:path";

export const DATA_DIR = path.resolve(".test-data/e2e");
export const AUTH_DIR = path.resolve(".test-data/e2e-auth");
export const PASSWORD = "e2e password 123";

const user = (name: string, roles: string[]) => ({
  email: `${name}@e2e.test`,
  roles,
  state: path.join(AUTH_DIR, `${name}.json`),
});

export const USERS = {
  admin: user("admin", ["admin"]),
  journalist: user("journalist", ["journalist"]),
  factchecker: user("factchecker", ["fact-checker"]),
  editor: user("editor", ["editor"]),
  annotator1: user("annotator1", ["annotator"]),
  annotator2: user("annotator2", ["annotator"]),
};
