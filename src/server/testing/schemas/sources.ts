/**
 * MAX's and VK's types the schema fixtures are generated from (`generate.ts`, run by hand; see the README): for each
 * route or method a driver calls, what it sends and what the platform answers, and what the platform posts. Only
 * types: nothing here runs. Each alias is one definition of its platform's fixture, named as here. (Telegram's
 * methods are read from @grammyjs/types by `generate.ts` itself: they are declared as functions, which the
 * generator cannot take apart.)
 */
import type * as Max from '../../../../node_modules/@maxhub/max-bot-api/dist/core/network/api/modules/index.d.ts';
import type { ErrorResponse as MaxErrorResponse } from '../../../../node_modules/@maxhub/max-bot-api/dist/core/network/api/error.d.ts';
import type { Update as MaxUpdateType } from '../../../../node_modules/@maxhub/max-bot-api/dist/core/network/api/types/index.d.ts';
import type * as VkParams from '../../../../node_modules/vk-io/lib/api/schemas/params.d.ts';
import type * as VkResponses from '../../../../node_modules/vk-io/lib/api/schemas/responses.d.ts';
import type * as VkObjects from '../../../../node_modules/vk-io/lib/api/schemas/objects.d.ts';

/** MAX: `<method> <route>` → the request's body (`DTO['body']`) and the answer. */
export type MaxUpdate = MaxUpdateType;
export type MaxError = MaxErrorResponse;
export type MaxAnswer_GET_me = Max.GetMyInfoResponse;
export type MaxAnswer_GET_subscriptions = Max.SubscriptionsResponseDTO;
export type MaxBody_POST_subscriptions = Max.SubscribeOnUpdatesDTO['body'];
export type MaxAnswer_POST_subscriptions = Max.SubscribeOnUpdatesResponse;
export type MaxAnswer_DELETE_subscriptions = Max.UnsubscribeFromUpdatesResponse;
export type MaxAnswer_POST_uploads = Max.GetUploadUrlResponse;
export type MaxBody_POST_messages = Max.SendMessageDTO['body'];
export type MaxAnswer_POST_messages = Max.SendMessageResponse;
export type MaxBody_PUT_messages = Max.EditMessageDTO['body'];
export type MaxAnswer_PUT_messages = Max.EditMessageResponse;
export type MaxAnswer_DELETE_messages = Max.DeleteMessageResponse;
export type MaxBody_POST_answers = Max.AnswerOnCallbackDTO['body'];
export type MaxAnswer_POST_answers = Max.AnswerOnCallbackResponse;
export type MaxAnswer_GET_videos = Max.GetVideoInfoResponse;

/** VK: a method's parameters and its `response` (as vk-io's methods name them), and the Callback API's events. */
export type VkParams_groups_get = VkParams.GroupsGetParams;
/** Ids, or with `extended=1` the communities (vk-io's method names only the former). */
export type VkResponse_groups_get = VkResponses.GroupsGetResponse | VkResponses.GroupsGetObjectExtendedResponse;
export type VkParams_groups_getById = VkParams.GroupsGetByIdParams;
export type VkResponse_groups_getById = VkResponses.GroupsGetByIdObjectResponse;
export type VkParams_groups_getCallbackConfirmationCode = VkParams.GroupsGetCallbackConfirmationCodeParams;
export type VkResponse_groups_getCallbackConfirmationCode = VkResponses.GroupsGetCallbackConfirmationCodeResponse;
export type VkParams_groups_setSettings = VkParams.GroupsSetSettingsParams;
export type VkResponse_groups_setSettings = VkResponses.BaseOkResponse;
export type VkParams_groups_getCallbackServers = VkParams.GroupsGetCallbackServersParams;
export type VkResponse_groups_getCallbackServers = VkResponses.GroupsGetCallbackServersResponse;
export type VkParams_groups_addCallbackServer = VkParams.GroupsAddCallbackServerParams;
export type VkResponse_groups_addCallbackServer = VkResponses.GroupsAddCallbackServerResponse;
export type VkParams_groups_editCallbackServer = VkParams.GroupsEditCallbackServerParams;
export type VkResponse_groups_editCallbackServer = VkResponses.BaseOkResponse;
export type VkParams_groups_deleteCallbackServer = VkParams.GroupsDeleteCallbackServerParams;
export type VkResponse_groups_deleteCallbackServer = VkResponses.BaseOkResponse;
export type VkParams_groups_setCallbackSettings = VkParams.GroupsSetCallbackSettingsParams;
export type VkResponse_groups_setCallbackSettings = VkResponses.BaseOkResponse;
export type VkParams_users_get = VkParams.UsersGetParams;
export type VkResponse_users_get = VkResponses.UsersGetResponse;
export type VkParams_messages_send = VkParams.MessagesSendParams;
/** A send to one peer answers the message's id; to several (`peer_ids`), one item each (vk-io names only the latter). */
export type VkResponse_messages_send = VkResponses.MessagesSendDeprecatedResponse | VkResponses.MessagesSendUserIdsResponse;
export type VkParams_photos_getMessagesUploadServer = VkParams.PhotosGetMessagesUploadServerParams;
export type VkResponse_photos_getMessagesUploadServer = VkResponses.PhotosGetMessagesUploadServerResponse;
export type VkParams_docs_getMessagesUploadServer = VkParams.DocsGetMessagesUploadServerParams;
export type VkResponse_docs_getMessagesUploadServer = VkResponses.DocsGetUploadServerResponse;
export type VkParams_photos_saveMessagesPhoto = VkParams.PhotosSaveMessagesPhotoParams;
export type VkResponse_photos_saveMessagesPhoto = VkResponses.PhotosSaveMessagesPhotoResponse;
export type VkParams_docs_save = VkParams.DocsSaveParams;
export type VkResponse_docs_save = VkResponses.DocsSaveResponse;
export type VkEvent_confirmation = VkObjects.CallbackConfirmation;
export type VkEvent_message_new = VkObjects.CallbackMessageNew;
export type VkEvent_message_reply = VkObjects.CallbackMessageReply;
export type VkEvent_message_edit = VkObjects.CallbackMessageEdit;
export type VkEvent_message_allow = VkObjects.CallbackMessageAllow;
export type VkEvent_message_deny = VkObjects.CallbackBase & { type: VkObjects.CallbackType; object: VkObjects.CallbackMessageDeny };
/** vk-io's message_new object is open and empty; VK's event carries the message (and the client's abilities). */
export type VkMessagesMessage = VkObjects.MessagesMessage;
