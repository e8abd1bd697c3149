// Plain requests written apart from the platform cases, without looking at the titles and
// descriptions they are found by: the search-quality table holds them beside the cases' own. The
// first measure of these twenty was 17 first and 20 in the top three; the search then learned
// to weigh rare words over common ones and a request's intent (a change or a look), not these
// requests in particular (lib/operations/registry.ts).

export const INDEPENDENT_SEARCHES: { ask: string; first: string }[] = [
  { ask: "add these rows to the sheet", first: "google_sheets.values.append" },
  { ask: "post on our facebook page", first: "facebook_pages.post.create" },
  { ask: "send a whatsapp template message to a customer", first: "whatsapp.template.send" },
  { ask: "how many people are on the website right now", first: "ga4.realtime_report" },
  { ask: "create a discount code in shopify", first: "shopify.discount_code.create" },
  { ask: "move the hubspot deal to closed won", first: "hubspot.deal.update_stage" },
  { ask: "make a copy of the slides template for acme", first: "google_slides.presentation.create_from_template" },
  { ask: "run a sql query in bigquery", first: "bigquery.query" },
  { ask: "reply to the google review", first: "google_business_profile.review.reply" },
  { ask: "change the title of my youtube video", first: "youtube.video.update" },
  { ask: "pause the amazon sponsored products campaign", first: "amazon_ads.sp_campaign.set_state" },
  { ask: "what search terms triggered my google ads", first: "google_ads.search_terms.report" },
  { ask: "add negative keywords to the google ads campaign", first: "google_ads.campaign.negative_keywords.add" },
  { ask: "instagram followers and reach this month", first: "instagram.insights" },
  { ask: "lower the daily budget of the bing ads campaign", first: "microsoft_ads.campaign.set_budget" },
  { ask: "pause the pinterest campaign", first: "pinterest_ads.campaign.set_status" },
  { ask: "find the quarterly report in google drive", first: "google_drive.files.search" },
  { ask: "which products are disapproved in merchant center", first: "google_merchant.product_statuses.list" },
  { ask: "unsubscribe this email from klaviyo", first: "klaviyo.profile.unsubscribe" },
  { ask: "pause the ad group in google ads", first: "google_ads.ad_group.pause" },
];
