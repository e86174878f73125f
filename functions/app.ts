import type { Deps } from '../src/deps';
import { ServiceError } from '../src/errors';
import { onError, errorResponse } from './errors';
import { OpenApiApp } from './openapi-app';
import { createFallback } from './method-not-allowed';
import { declaredBodyLimit } from './middleware/body-limit';
import { requestContext, securityHeaders } from './middleware/request-context';
import { pageCache } from './middleware/page-cache';
import { PAGE_CACHE_ROUTES } from './middleware/page-cache-keys';
import { validationHook } from './validation-hook';
import type { AppEnv, AppOptions } from './types';
import * as submitSite from './v1/sites/submit-site';
import * as getSite from './v1/sites/get-site';
import * as listSites from './v1/sites/list-sites';
import * as retrySite from './v1/sites/retry-site';
import * as refreshSiteFromWebsite from './v1/sites/refresh-site-from-website';
import * as editSite from './v1/sites/edit-site';
import * as withdrawSite from './v1/sites/withdraw-site';
import * as getSiteStats from './v1/sites/get-site-stats';
import * as searchTools from './v1/tools/search-tools';
import * as getTool from './v1/tools/get-tool';
import * as listCategories from './v1/tools/list-categories';
import * as listRegistryServers from './registry/list-servers';
import * as registryServerVersions from './registry/server-versions';
import * as listChanges from './v1/tools/list-changes';
import * as domainRoutes from './v1/domains';
import * as claimRoutes from './v1/claims';
import * as mcp from './mcp/transport';
import * as protectedMcp from './mcp/protected';
import * as oauth from './oauth';
import * as openapi from './v1/docs/openapi';
import * as referencePage from './v1/docs/reference-page';
import * as tryIt from './v1/docs/try-it';
import * as explorerPage from './v1/docs/explorer-page';
import * as referenceUiAssets from './v1/docs/reference-ui-assets';
import * as adminAccounts from './admin/accounts';
import * as adminOAuthGrants from './admin/oauth-grants';
import * as llmsTxt from './pages/llms-txt';
import * as robotsTxt from './pages/robots-txt';
import * as sitemap from './pages/sitemap';
import * as feedXml from './pages/feed-xml';
import * as adminReview from './admin/review';
import * as adminEditReview from './admin/edit-review';
import * as adminCategories from './admin/categories';
import * as adminDisputes from './admin/disputes';
import * as editorPage from './admin/editor-page';
import * as crawlJob from './jobs/crawl';
import * as reviewJob from './jobs/review';
import * as refundJob from './jobs/refund';
import * as sweepJob from './jobs/sweep';
import * as webhookJob from './jobs/webhook';
import * as statsJobs from './jobs/stats';
import * as recheckJob from './jobs/recheck';
import * as statsOptOut from './pages/stats-opt-out';
import * as mailUnsubscribe from './pages/mail-unsubscribe';
import * as healthMailsOptOut from './pages/health-mails-opt-out';
import * as createWebhook from './v1/webhooks/create-webhook';
import * as listWebhooks from './v1/webhooks/list-webhooks';
import * as deleteWebhook from './v1/webhooks/delete-webhook';
import * as listWebhookDeliveries from './v1/webhooks/list-webhook-deliveries';
import * as testWebhook from './v1/webhooks/test-webhook';
import { STATUS_CHANGING_PATHS, announceStatusChanges } from './middleware/announce-status-changes';
import { COUNTED_PATHS, countListingEvents } from './middleware/count-listing-events';
import * as homePage from './pages/home';
import * as toolPage from './pages/tool-page';
import * as categoryPage from './pages/category-page';
import * as badge from './pages/badge';
import * as outboundLink from './pages/go';
import * as mediaFiles from './pages/media';
import * as accountPages from './pages/account';
import * as stripeWebhook from './stripe/webhook';
import * as checkoutPages from './pages/checkout';
import * as membershipCheckout from './stripe/membership-checkout';
import { notFoundPage } from './pages/not-found';
import * as shellAssets from './pages/shell/assets';
import * as connectPage from './pages/connect-page';
import * as pricingPage from './pages/pricing-page';
import * as aboutChecks from './pages/about-checks';
import * as submitPage from './pages/submit/submit-page';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '../src/body-limit';

/** Every function the service exposes, in mount order. One `register(app)` per file. */
const functions = [
  submitSite,
  getSite,
  listSites,
  retrySite,
  refreshSiteFromWebsite,
  editSite,
  withdrawSite,
  getSiteStats,
  searchTools,
  getTool,
  listCategories,
  listRegistryServers,
  registryServerVersions,
  listChanges,
  domainRoutes,
  claimRoutes,
  createWebhook,
  listWebhooks,
  deleteWebhook,
  listWebhookDeliveries,
  testWebhook,
  mcp,
  protectedMcp,
  oauth,
  adminAccounts,
  adminOAuthGrants,
  adminReview,
  adminEditReview,
  adminCategories,
  adminDisputes,
  crawlJob,
  reviewJob,
  refundJob,
  sweepJob,
  webhookJob,
  statsJobs,
  recheckJob,
  openapi,
  referencePage,
  tryIt,
  explorerPage,
  llmsTxt,
  robotsTxt,
  feedXml,
  editorPage,
  shellAssets,
  homePage,
  connectPage,
  pricingPage,
  aboutChecks,
  submitPage,
  toolPage,
  categoryPage,
  badge,
  outboundLink,
  statsOptOut,
  mailUnsubscribe,
  healthMailsOptOut,
  mediaFiles,
  accountPages,
  stripeWebhook,
  checkoutPages,
  membershipCheckout,
];

/** Builds the whole app over the given deps: the same app runs on Node, in Workers and in tests. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new OpenApiApp({ defaultHook: validationHook });
  app.use('*', requestContext(deps), securityHeaders);
  app.use(
    '/api/v1/*',
    declaredBodyLimit(BODY_LIMIT_BYTES, (c) =>
      errorResponse(c, new ServiceError('payload_too_large', `The request body is larger than ${BODY_LIMIT_TEXT}.`)),
    ),
  );
  for (const path of STATUS_CHANGING_PATHS) app.use(path, announceStatusChanges);
  // Listing statistics, counted after the response (docs/stats.md); outside the page cache, so a hit counts too.
  for (const path of COUNTED_PATHS) app.use(path, countListingEvents);
  for (const [path, reads] of PAGE_CACHE_ROUTES) app.use(path, pageCache(reads));
  for (const fn of functions) fn.register(app);
  referenceUiAssets.register(app, options.docsAssets);
  sitemap.register(app, options.sitemap);
  options.extraRoutes?.(app);
  app.onError(onError);
  app.notFound(createFallback(app, notFoundPage));
  return app;
}

export type App = ReturnType<typeof createApp>;
