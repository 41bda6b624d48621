/**
 * WhatsApp Cloud API types the `wapi.json` fixture is generated from (`generate.ts`, run by hand; see the README), as
 * whatsapp-api-js declares them: the body of each message the wapi driver sends (`POST /{phone_number_id}/messages`)
 * and Meta's answer, a media's address (`GET /{media_id}`), Graph's refusal, and the webhook notification Meta posts
 * for the `messages` field. Only types: nothing here runs. Each alias is one definition of the fixture, named as here.
 *
 * whatsapp-api-js builds a send from classes, whose declared fields are what the request carries (their `_type`
 * getters and `_build` methods are not sent, and the generator leaves them out). Two of its types name a part by an
 * interface of no fields, filled in when the message is built; they are written out here with the package's classes
 * of that part: an interactive message's `action` (reply buttons or a list), a template's `components`. (The driver
 * sends no reaction, location, contacts, read receipt or typing indicator, and uploads no media: not declared here.)
 *
 * whatsapp-api-js types no phone number: a WhatsApp Business Account's numbers (`GET /{waba_id}/phone_numbers`) are
 * typed as @great-detail/whatsapp declares Meta's phone number node (`WhatsAppNumbers_…`, the `wapi-numbers.json`
 * fixture).
 */
import type * as Wapi from '../../../../node_modules/whatsapp-api-js/lib/types.d.ts';
import type { Text } from '../../../../node_modules/whatsapp-api-js/lib/messages/text.d.ts';
import type { Audio, Document, Image, Video } from '../../../../node_modules/whatsapp-api-js/lib/messages/media.d.ts';
import type { BodyComponent, HeaderComponent, PayloadComponent, Template } from '../../../../node_modules/whatsapp-api-js/lib/messages/template.d.ts';
import type { ActionButtons, ActionList, Body, Footer, Header } from '../../../../node_modules/whatsapp-api-js/lib/messages/interactive.d.ts';
import type { ListPhoneNumbersPaylod } from '../../../../node_modules/@great-detail/whatsapp/dist/index.d.ts';

/** What every send carries beside its message: `messaging_product`, `to`, `recipient_type`, `context`, … */
type Envelope = Omit<Extract<Wapi.ClientMessageRequest, { type: 'text' }>, Wapi.ClientMessageNames | 'type'>;
type Interactive<T extends string, A> = { type: T; action: A; body?: Body; header?: Header; footer?: Footer };

export type WapiBody_text = Envelope & { type: 'text'; text: Text };
export type WapiBody_image = Envelope & { type: 'image'; image: Image };
export type WapiBody_video = Envelope & { type: 'video'; video: Video };
export type WapiBody_audio = Envelope & { type: 'audio'; audio: Audio };
export type WapiBody_document = Envelope & { type: 'document'; document: Document };
export type WapiBody_template = Envelope & { type: 'template'; template: Omit<Template, 'components'> & { components?: (HeaderComponent | BodyComponent | PayloadComponent)[] } };
export type WapiBody_interactive = Envelope & { type: 'interactive'; interactive: Interactive<'button', ActionButtons> | Interactive<'list', ActionList> };
export type WapiAnswer_messages = Wapi.ServerSentMessageResponse;
export type WapiAnswer_media = Extract<Wapi.ServerMediaRetrieveResponse, { url: string }>;
export type WapiError = Wapi.ServerErrorResponse;
/**
 * whatsapp-api-js's `PostData` intersects a change's `value` (its envelope) with its field's own `value`, which the
 * generator does not merge: the `messages` field's change is put together here of the package's parts.
 */
type Metadata = Wapi.PostData['entry'][number]['changes'][number]['value']['metadata'];
type MessagesValue = { messaging_product: 'whatsapp'; metadata: Metadata; contacts?: [Wapi.ServerContacts] };
export type WapiWebhook = {
  object: Wapi.PostData['object'];
  entry: { id: string; changes: { field: 'messages'; value: (MessagesValue & { messages: [Wapi.ServerMessage] }) | (MessagesValue & { statuses: [Wapi.ServerStatusPayload] }) }[] }[];
};

export type WhatsAppNumbers_phone_numbers = ListPhoneNumbersPaylod;
