import "server-only";
import { z } from "zod";
import { googleApiCall, googleType, isObject, listOf } from "@/lib/platforms/google/google-provider";
import { count, lastSegment, marketingCall, text } from "@/lib/platforms/google/marketing-call";
import type { GoogleProduct } from "@/lib/platforms/google/products";
import { businessProfileDocs } from "@/lib/platforms/google/business-profile/business-profile-docs";
import { defineRead, defineWrite } from "@/lib/platforms/kit/define-operation";
import { monogramLogo } from "@/lib/platforms/kit/monogram-logo";
import type { OperationContext } from "@/lib/platforms/kit/operation-types";

// Google Business Profile: accounts through the Account Management API v1, locations through the
// Business Information API v1 (readMask is required there), reviews and review replies through the
// My Business API v4, the one Google still serves reviews from. One scope for all: business.manage.

const TYPE = "google_business_profile";
const ACCOUNTS_API = "https://mybusinessaccountmanagement.googleapis.com/v1";
const INFO_API = "https://mybusinessbusinessinformation.googleapis.com/v1";
const REVIEWS_API = "https://mybusiness.googleapis.com/v4";
const SCOPE = "https://www.googleapis.com/auth/business.manage";
/** The location fields the locations list reads (Business Information API readMask). */
const LOCATION_FIELDS = "name,title,storefrontAddress,websiteUri,phoneNumbers,categories,metadata";
const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

const numericId = (what: string, example: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,30}$/, `must be the numeric ${what} ID`)
    .describe(`The ${what} ID (the number after ${what === "account" ? "accounts/" : "locations/"}), e.g. ${example}.`);
const accountId = numericId("account", "112233445566778899");
const locationId = numericId("location", "1234567890123456789");
const reviewId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, "must be a review ID as google_business_profile.reviews.list returns it")
  .describe("The review's ID (review_id in google_business_profile.reviews.list).");

/** shownReview's answer. */
const reviewShape = {
  review_id: z.string().nullable().describe("Review ID"),
  reviewer: z.string().nullable().describe("Reviewer"),
  star_rating: z.number().nullable().describe("Star rating (1-5)"),
  comment: z.string().nullable().describe("Review text"),
  create_time: z.string().nullable().describe("Reviewed at"),
  update_time: z.string().nullable().describe("Updated at"),
  reply: z
    .object({
      comment: z.string().nullable().describe("Reply text"),
      update_time: z.string().nullable().describe("Replied at"),
    })
    .nullable()
    .describe("Your reply (none yet: null)"),
};

function shownReview(r: Record<string, unknown>) {
  const reviewer = isObject(r.reviewer) ? r.reviewer : {};
  const reply = isObject(r.reviewReply) ? r.reviewReply : null;
  return {
    review_id: text(r.reviewId) ?? lastSegment(r.name),
    reviewer: reviewer.isAnonymous === true ? "Anonymous" : text(reviewer.displayName),
    star_rating: STARS[String(r.starRating)] ?? null,
    comment: text(r.comment),
    create_time: text(r.createTime),
    update_time: text(r.updateTime),
    reply: reply ? { comment: text(reply.comment), update_time: text(reply.updateTime) } : null,
  };
}

const reviewUrl = (a: { account_id: string; location_id: string; review_id: string }) =>
  `${REVIEWS_API}/accounts/${a.account_id}/locations/${a.location_id}/reviews/${a.review_id}`;

async function reviewState(ctx: OperationContext, a: { account_id: string; location_id: string; review_id: string }) {
  // https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/get
  return shownReview(await marketingCall(ctx, reviewUrl(a), "the reviews.get call"));
}

const listAccounts = defineRead({
  id: "google_business_profile.accounts.list",
  title: "List Google Business Profile accounts",
  consent: "See your Business Profile accounts, locations and reviews",
  description:
    "Lists the Google Business Profile accounts this connection can manage (Account Management API accounts.list): account_id, name, type (personal, location group, organization), your role and verification state. " +
    "Use the account_id with google_business_profile.locations.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    limit: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(20)
      .describe("How many accounts to return at most (1-20, default 20)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { limit: 20 },
  output: {
    accounts: z
      .array(
        z.object({
          account_id: z.string().nullable().describe("Business Profile account ID"),
          name: z.string().nullable().describe("Account name"),
          type: z.string().nullable().describe("Account type, e.g. PERSONAL or LOCATION_GROUP"),
          role: z.string().nullable().describe("Your role, e.g. OWNER"),
          verification_state: z.string().nullable().describe("Verification state"),
        }),
      )
      .describe("Business Profile accounts"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the accounts.list call";
    // https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
    const body = await marketingCall(ctx, `${ACCOUNTS_API}/accounts`, what, {
      query: { pageSize: String(args.limit), pageToken: args.page_token },
    });
    return {
      accounts: listOf(body, "accounts", what).map((a) => ({
        account_id: lastSegment(a.name),
        name: text(a.accountName),
        type: text(a.type),
        role: text(a.role),
        verification_state: text(a.verificationState),
      })),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const listLocations = defineRead({
  id: "google_business_profile.locations.list",
  title: "List the locations of a Google Business Profile account",
  consent: "See your Business Profile accounts, locations and reviews",
  description:
    "Lists the business locations (stores, branches, listings on Google Maps) of a Google Business Profile account (Business Information API accounts.locations.list): location_id, title, address, website, phone, primary category, Maps link and place ID. " +
    "Use location_id with google_business_profile.reviews.list.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    account_id: accountId,
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(100)
      .describe("How many locations to return at most (1-100, default 100)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { account_id: "112233445566778899" },
  output: {
    account_id: z.string().describe("Business Profile account ID"),
    locations: z
      .array(
        z.object({
          location_id: z.string().nullable().describe("Location ID"),
          title: z.string().nullable().describe("Business name"),
          address: z.string().nullable().describe("Address"),
          website: z.string().nullable().describe("Website"),
          phone: z.string().nullable().describe("Phone"),
          primary_category: z.string().nullable().describe("Primary category"),
          maps_uri: z.string().nullable().describe("Google Maps link"),
          place_id: z.string().nullable().describe("Google place ID"),
        }),
      )
      .describe("Locations"),
    total: z.number().nullable().describe("Locations in the account"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the locations.list call";
    // https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
    const body = await marketingCall(ctx, `${INFO_API}/accounts/${args.account_id}/locations`, what, {
      query: { readMask: LOCATION_FIELDS, pageSize: String(args.limit), pageToken: args.page_token },
    });
    return {
      account_id: args.account_id,
      locations: listOf(body, "locations", what).map((l) => {
        const address = isObject(l.storefrontAddress) ? l.storefrontAddress : {};
        const phones = isObject(l.phoneNumbers) ? l.phoneNumbers : {};
        const categories = isObject(l.categories) ? l.categories : {};
        const metadata = isObject(l.metadata) ? l.metadata : {};
        const lines = Array.isArray(address.addressLines) ? address.addressLines.map(String) : [];
        const place = [address.postalCode, address.locality].filter((v) => typeof v === "string" && v).join(" ");
        return {
          location_id: lastSegment(l.name),
          title: text(l.title),
          address: [...lines, place, text(address.regionCode)].filter(Boolean).join(", ") || null,
          website: text(l.websiteUri),
          phone: text(phones.primaryPhone),
          primary_category: isObject(categories.primaryCategory) ? text(categories.primaryCategory.displayName) : null,
          maps_uri: text(metadata.mapsUri),
          place_id: text(metadata.placeId),
        };
      }),
      total: count(body.totalSize),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const listReviews = defineRead({
  id: "google_business_profile.reviews.list",
  title: "List the Google reviews of a Business Profile location",
  consent: "See your Business Profile accounts, locations and reviews",
  description:
    "Lists the customer reviews of one Google Business Profile location (Google Maps and Search reviews, My Business API v4 reviews.list): reviewer, star rating 1-5, comment, dates and the owner's reply if any, plus the average rating and total review count. " +
    "Newest first by default. Use review_id with google_business_profile.review.reply to answer a review.",
  types: [TYPE],
  credits: 1,
  cacheTtlSeconds: 300,
  input: {
    account_id: accountId,
    location_id: locationId,
    order_by: z
      .enum(["updateTime desc", "rating", "rating desc"])
      .default("updateTime desc")
      .describe("updateTime desc (default, newest first), rating (worst first) or rating desc (best first)."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(50)
      .describe("How many reviews to return at most (1-50, default 50)."),
    page_token: z.string().max(2000).optional().describe("next_page_token of a previous call, for the next page."),
  },
  example: { account_id: "112233445566778899", location_id: "1234567890123456789" },
  output: {
    account_id: z.string().describe("Business Profile account ID"),
    location_id: z.string().describe("Location ID"),
    average_rating: z.number().nullable().describe("Average star rating"),
    total_review_count: z.number().nullable().describe("Total reviews"),
    reviews: z.array(z.object(reviewShape)).describe("Reviews"),
    next_page_token: z.string().nullable().describe("Next page token (null on the last page)"),
  },
  async run(ctx, args) {
    const what = "the reviews.list call";
    // https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/list
    const body = await marketingCall(
      ctx,
      `${REVIEWS_API}/accounts/${args.account_id}/locations/${args.location_id}/reviews`,
      what,
      {
        query: { pageSize: String(args.limit), orderBy: args.order_by, pageToken: args.page_token },
      },
    );
    return {
      account_id: args.account_id,
      location_id: args.location_id,
      average_rating: count(body.averageRating),
      total_review_count: count(body.totalReviewCount),
      reviews: listOf(body, "reviews", what).map(shownReview),
      next_page_token: text(body.nextPageToken),
    };
  },
});

const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const replyToReview = defineWrite({
  id: "google_business_profile.review.reply",
  idempotent: true,
  title: "Reply to a Google review of a Business Profile location",
  consent: "Reply to reviews of your locations",
  description:
    "Posts the owner's public reply to one Google review of a Business Profile location, or replaces the existing reply (My Business API v4 reviews.updateReply): respond to, answer or thank a reviewer. " +
    "The location must be verified. Returns the reply as Google stored it. Find review IDs with google_business_profile.reviews.list.",
  types: [TYPE],
  credits: 1,
  input: {
    account_id: accountId,
    location_id: locationId,
    review_id: reviewId,
    comment: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .describe("The reply's text, shown publicly under the review (at most 4096 characters)."),
  },
  example: {
    account_id: "112233445566778899",
    location_id: "1234567890123456789",
    review_id: "AbFvOqn1",
    comment: "Thank you for your visit!",
  },
  summarize(args, _connection, before) {
    const state = isObject(before) ? before : {};
    const stars = typeof state.star_rating === "number" ? ` ${state.star_rating}-star` : "";
    const by = typeof state.reviewer === "string" ? ` by ${state.reviewer}` : "";
    const replaces = isObject(state.reply) ? " (replacing the existing reply)" : "";
    return `Reply to the${stars} review ${args.review_id}${by} of location ${args.location_id} in Business Profile account ${args.account_id}${replaces}: "${short(args.comment)}"`;
  },
  before: (ctx, args) => reviewState(ctx, args),
  output: {
    account_id: z.string().describe("Business Profile account ID"),
    location_id: z.string().describe("Location ID"),
    review_id: z.string().describe("Review ID"),
    reviewer: reviewShape.reviewer,
    star_rating: reviewShape.star_rating,
    previous_reply: z.string().nullable().describe("Previous reply"),
    reply: z
      .object({
        comment: z.string().describe("Reply text"),
        update_time: z.string().nullable().describe("Replied at"),
      })
      .describe("Reply posted"),
  },
  async run(ctx, args) {
    const previous = await reviewState(ctx, args);
    // https://developers.google.com/my-business/reference/rest/v4/accounts.locations.reviews/updateReply
    const body = await marketingCall(ctx, `${reviewUrl(args)}/reply`, "the reviews.updateReply call", {
      method: "PUT",
      body: { comment: args.comment },
    });
    return {
      account_id: args.account_id,
      location_id: args.location_id,
      review_id: args.review_id,
      reviewer: previous.reviewer,
      star_rating: previous.star_rating,
      previous_reply: previous.reply?.comment ?? null,
      reply: { comment: text(body.comment) ?? args.comment, update_time: text(body.updateTime) },
    };
  },
});

export const product: GoogleProduct = {
  types: [
    googleType({
      type: TYPE,
      name: "Google Business Profile",
      logo: monogramLogo("#34A853", "BP"),
      scopes: [{ name: SCOPE, allows: "See, edit, create and delete your Google business listings", changes: true }],
      credentialFields: ["client_id", "client_secret", "refresh_token"],
      docs: businessProfileDocs,
      hosts: [
        "mybusinessaccountmanagement.googleapis.com",
        "mybusinessbusinessinformation.googleapis.com",
        "mybusiness.googleapis.com",
      ],
      async check(type, accessToken) {
        const what = "the Account Management API call (accounts.list)";
        // https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
        const body = await googleApiCall(type, `${ACCOUNTS_API}/accounts?pageSize=1`, accessToken, what);
        const [first] = listOf(body, "accounts", what);
        return { accountId: lastSegment(first?.name) ?? undefined, accountName: text(first?.accountName) ?? undefined };
      },
    }),
  ],
  operations: [listAccounts, listLocations, listReviews, replyToReview],
};
