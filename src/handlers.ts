import type { AnyHandler, Handler, OperationId } from './http/handler.js';
import { NotImplementedError } from './lib/errors.js';
import * as accounts from './modules/accounts/handlers.js';
import * as auth from './modules/auth/handlers.js';
import * as connect from './modules/connect/handlers.js';
import * as chatappCloud from './modules/connect/chatapp-cloud.js';
import * as qrchat from './modules/connect/qrchat.js';
import * as socialNetwork from './modules/connect/social-network.js';
import * as hooks from './modules/hooks/handlers.js';
import * as keys from './modules/keys/handlers.js';
import * as media from './modules/media/handlers.js';
import * as messaging from './modules/messaging/handlers.js';
import * as publishing from './modules/publishing/handlers.js';
import * as usage from './modules/usage/handlers.js';
import * as webhooks from './modules/webhooks/handlers.js';

/**
 * Operations of the contract that are not built yet: they answer 501 `not_implemented`, and the contract lists
 * 501 for exactly these (test/contract checks both ways). Building an operation removes it from here.
 */
export const NOT_IMPLEMENTED = [
  'listAiModels', 'generateCopy', 'generateImage', 'generateVideo', 'generateAudio', 'getGeneration',
  'listGenerations', 'sendMessage', 'sendChatappMessage', 'listComments', 'replyToComment', 'hideComment',
  'deleteComment', 'createAutomation', 'listAutomations', 'getAutomation', 'updateAutomation', 'deleteAutomation',
  'getAnalyticsSummary', 'getFollowerAnalytics', 'getAccountInsights', 'getPostInsights', 'listCampaigns',
  'createCampaign', 'listAdSets', 'createAdSet', 'listAds', 'createAd', 'createAdCreative', 'updateAdObject',
  'deleteAdObject', 'boostPost', 'createDarkPost', 'getAdInsights', 'searchAdLocations', 'listAudiences',
  'createAudience', 'listPixels', 'sendPixelEvents', 'listCustomConversions', 'createCustomConversion',
  'listCatalogs', 'createCatalog', 'listProducts', 'createProduct', 'deleteProducts', 'batchProducts',
  'listProductSets', 'createProductSet', 'listShops', 'listLeadForms', 'createLeadForm', 'getLeadForm',
  'testLeadFormWebhook', 'listLeads', 'listLeadStates', 'updateLeadState', 'createWalletProgram',
  'listWalletPrograms', 'getWalletProgram', 'updateWalletProgram', 'connectWalletVendor',
  'uploadWalletVendorCertificate', 'getWalletVendorStatus', 'createWalletPass', 'listWalletPasses', 'getWalletPass',
  'deleteWalletPass', 'downloadWalletPass', 'createPassTransaction', 'listPassTransactions', 'listCalendarEvents',
  'createCalendarEvent', 'updateCalendarEvent', 'deleteCalendarEvent', 'getUsage', 'createCheckoutSession',
  'createPortalSession',
] as const satisfies readonly OperationId[];

/**
 * Operations built for some platforms only: they answer 501 `not_implemented` for the others, so the contract
 * keeps their 501 response. The value says what is missing.
 */
export const PARTLY_IMPLEMENTED: Partial<Record<OperationId, string>> = {
  verifyPlatformWebhook: 'every platform but those with a webhook receiver (botchat, chatapp-cloud, short_video and social_network so far)',
  receivePlatformWebhook: 'every platform but those with a webhook receiver (botchat, chatapp-cloud, short_video and social_network so far)',
};

type Built = Exclude<OperationId, (typeof NOT_IMPLEMENTED)[number]>;

/** One handler per built operation, named by its operationId; a missing or extra one fails the typecheck. */
const built: { [K in Built]: Handler<K> } = {
  signUp: auth.signUp,
  logIn: auth.logIn,
  logOut: auth.logOut,
  getSession: auth.getSession,
  createApiKey: keys.createApiKey,
  listApiKeys: keys.listApiKeys,
  updateApiKey: keys.updateApiKey,
  deleteApiKey: keys.deleteApiKey,
  createProfile: accounts.createProfile,
  listProfiles: accounts.listProfiles,
  getProfile: accounts.getProfile,
  updateProfile: accounts.updateProfile,
  listAccounts: accounts.listAccounts,
  listAccountHealth: accounts.listAccountHealth,
  getAccount: accounts.getAccount,
  deleteAccount: accounts.deleteAccount,
  getAccountAbout: accounts.getAccountAbout,
  listAdAccounts: accounts.listAdAccounts,
  deleteAdAccount: accounts.deleteAdAccount,
  connectBotchat: connect.connectBotchat,
  connectChatappCloud: chatappCloud.connectChatappCloud,
  connectQrchat: qrchat.connectQrchat,
  getQrchatQr: qrchat.getQrchatQr,
  startConnection: connect.startConnection,
  listAvailableSocialNetworkPages: socialNetwork.listAvailableSocialNetworkPages,
  connectSocialNetworkPages: socialNetwork.connectSocialNetworkPages,
  listAvailableSocialNetworkAdAccounts: socialNetwork.listAvailableSocialNetworkAdAccounts,
  connectSocialNetworkAdAccounts: socialNetwork.connectSocialNetworkAdAccounts,
  completeConnection: connect.completeConnection,
  verifyPlatformWebhook: webhooks.verifyPlatformWebhook,
  receivePlatformWebhook: webhooks.receivePlatformWebhook,
  listConversations: messaging.listConversations,
  getConversation: messaging.getConversation,
  createHook: hooks.createHook,
  listHooks: hooks.listHooks,
  getHook: hooks.getHook,
  updateHook: hooks.updateHook,
  deleteHook: hooks.deleteHook,
  testHook: hooks.testHook,
  rotateHookSecret: hooks.rotateHookSecret,
  listHookDeliveries: hooks.listHookDeliveries,
  redeliverHookDelivery: hooks.redeliverHookDelivery,
  uploadMedia: media.uploadMedia,
  getMedia: media.getMedia,
  downloadMediaFile: media.downloadMediaFile,
  getHealth: usage.getHealth,
  getLlmsTxt: usage.getLlmsTxt,
  getOpenApiDocument: usage.getOpenApiDocument,
  getDocs: usage.getDocs,
  createPost: publishing.createPost,
  listPosts: publishing.listPosts,
  getPost: publishing.getPost,
  deletePost: publishing.deletePost,
  retryPost: publishing.retryPost,
  createQueueSlot: publishing.createQueueSlot,
  listQueueSlots: publishing.listQueueSlots,
  deleteQueueSlot: publishing.deleteQueueSlot,
  enqueuePost: publishing.enqueuePost,
  listQueue: publishing.listQueue,
  listAccountHistory: publishing.listAccountHistory,
  deletePlatformPost: publishing.deletePlatformPost,
};

function notImplemented(operationId: OperationId): AnyHandler {
  return async () => {
    throw new NotImplementedError(operationId);
  };
}

export const handlers: Record<string, AnyHandler> = {
  ...Object.fromEntries(NOT_IMPLEMENTED.map((operationId) => [operationId, notImplemented(operationId)])),
  ...(built as unknown as Record<string, AnyHandler>),
};
