/** What the owner coming back from Embedded Signup is told when nothing changed, by cause. */
export const refusals = {
  forged: 'This link is not one of this gateway’s: open the channel’s link again',
  expired: 'This link has expired: reconnect the channel (reinit) for a new one',
  choiceExpired: 'This page of numbers has expired: open the channel’s link again to choose a number',
  used: 'This link was used already, or the channel was connected again since: open the channel’s current link',
  declined: 'The authorization was not given: open the channel’s link again to connect the number',
  codeRefused: 'Meta did not accept the authorization (it may have been used already, or be too old): open the channel’s link again',
  noAccount: 'No WhatsApp Business Account was shared with this gateway: open the channel’s link again and share one',
  noMessaging: 'Messaging through this gateway was not allowed for the account: open the channel’s link again and allow it',
  noNumber: 'The WhatsApp Business Account has no phone number to connect that is not connected to another channel already',
  numberTaken: 'The number chosen was connected to another channel meanwhile: go back and choose another, or open the channel’s link again',
  pinSet: 'The number has a two-step verification PIN: turn it off in WhatsApp Manager, then open the channel’s link again',
} as const;
