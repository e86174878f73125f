import { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../src/deps';
import { ServiceError } from '../src/errors';
import { onError, errorResponse } from './errors';
import { createFallback } from './method-not-allowed';
import { declaredBodyLimit } from './middleware/body-limit';
import { requestContext, securityHeaders } from './middleware/request-context';
import { pageCache } from './middleware/page-cache';
import { PAGE_CACHE_ROUTES } from './middleware/page-cache-keys';
import { validationHook } from './validation-hook';
import type { AppEnv, AppOptions } from './types';
import * as submitSite from './v1/submit-site';
import * as sitesGet from './v1/sites-get';
import * as sitesList from './v1/sites-list';
import * as sitesRetry from './v1/sites-retry';
import * as sitesEdit from './v1/sites-edit';
import * as sitesStats from './v1/sites-stats';
import * as toolsSearch from './v1/tools-search';
import * as toolsGet from './v1/tools-get';
import * as categoriesList from './v1/categories-list';
import * as mcp from './mcp/transport';
import * as protectedMcp from './mcp/protected';
import * as oauth from './oauth';
import * as openapi from './v1/openapi';
import * as docsPage from './v1/docs-page';
import * as docsTry from './v1/docs-try';
import * as explorerPage from './v1/explorer-page';
import * as docsAssets from './v1/docs-assets';
import * as adminAccounts from './admin/accounts';
import * as adminOAuthGrants from './admin/oauth-grants';
import * as llmsTxt from './pages/llms-txt';
import * as robotsTxt from './pages/robots-txt';
import * as sitemap from './pages/sitemap';
import * as adminReview from './admin/review';
import * as adminEditReview from './admin/edit-review';
import * as adminCategories from './admin/categories';
import * as editorPage from './admin/editor-page';
import * as crawlJob from './jobs/crawl';
import * as reviewJob from './jobs/review';
import * as refundJob from './jobs/refund';
import * as sweepJob from './jobs/sweep';
import * as webhookJob from './jobs/webhook';
import * as statsJobs from './jobs/stats';
import * as statsOptOut from './pages/stats-opt-out';
import * as mailUnsubscribe from './pages/mail-unsubscribe';
import * as webhooksCreate from './v1/webhooks-create';
import * as webhooksList from './v1/webhooks-list';
import * as webhooksDelete from './v1/webhooks-delete';
import * as webhookDeliveries from './v1/webhook-deliveries';
import * as webhookTest from './v1/webhook-test';
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
import * as submitPage from './pages/submit/submit-page';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '../src/body-limit';

/** Every function the service exposes, in mount order. One `register(app)` per file. */
const functions = [
  submitSite,
  sitesGet,
  sitesList,
  sitesRetry,
  sitesEdit,
  sitesStats,
  toolsSearch,
  toolsGet,
  categoriesList,
  webhooksCreate,
  webhooksList,
  webhooksDelete,
  webhookDeliveries,
  webhookTest,
  mcp,
  protectedMcp,
  oauth,
  adminAccounts,
  adminOAuthGrants,
  adminReview,
  adminEditReview,
  adminCategories,
  crawlJob,
  reviewJob,
  refundJob,
  sweepJob,
  webhookJob,
  statsJobs,
  openapi,
  docsPage,
  docsTry,
  explorerPage,
  llmsTxt,
  robotsTxt,
  editorPage,
  shellAssets,
  homePage,
  connectPage,
  pricingPage,
  submitPage,
  toolPage,
  categoryPage,
  badge,
  outboundLink,
  statsOptOut,
  mailUnsubscribe,
  mediaFiles,
  accountPages,
  stripeWebhook,
  checkoutPages,
  membershipCheckout,
];

/** Builds the whole app over the given deps: the same app runs on Node, in Workers and in tests. */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
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
  docsAssets.register(app, options.docsAssets);
  sitemap.register(app, options.sitemap);
  options.extraRoutes?.(app);
  app.onError(onError);
  app.notFound(createFallback(app, notFoundPage));
  return app;
}

export type App = ReturnType<typeof createApp>;
