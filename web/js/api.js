// The server's JSON API (described at /api/openapi.json). Every call goes to this same origin with the
// session token (session.js); a refusal comes back as a problem document, which `ApiError` carries in words.

import { sessionHeaders } from "./session.js";
import { notice } from "./notices.js";

export class ApiError extends Error {
  constructor(problem, status) {
    super(problem.title || notice("connection.refusedWithoutWords"));
    this.status = status;
    this.kind = (problem.type || "").split("/").pop();
    this.hint = problem.detail || "";
  }
}

/** The server could not be reached at all (it stopped, or the connection dropped): a reason to wait, not to fail. */
export class OfflineError extends Error {
  constructor() {
    super(notice("connection.lost"));
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? sessionHeaders() : { ...sessionHeaders(), "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new OfflineError();
  }
  const text = await response.text();
  let value = null;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    value = { title: text };
  }
  if (!response.ok) throw new ApiError(value || {}, response.status);
  return value;
}

export const api = {
  get: (path, params = {}) => {
    const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));
    const text = query.toString();
    return call("GET", text ? `${path}?${text}` : path);
  },
  post: (path, body = {}) => call("POST", path, body),
  delete: (path) => call("DELETE", path),
};
