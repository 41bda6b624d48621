import type { FreeNumber } from './signup-grant.ts';

/** Meta's quality rating of a number, in words. */
function qualityOf(rating: string | null): string {
  switch (rating?.toUpperCase()) {
    case 'GREEN':
      return 'quality high';
    case 'YELLOW':
      return 'quality medium';
    case 'RED':
      return 'quality low';
    default:
      return 'quality not rated yet';
  }
}

/**
 * How a number reads on the page of numbers to choose from (a WhatsApp Business Account with several numbers no other
 * channel has; meta/login-choice.ts): as Meta writes it for people, its verified name, its quality rating.
 */
export const numberLabel = (n: FreeNumber): string => [n.display_phone_number ?? n.id, n.verified_name ?? 'no verified name', qualityOf(n.quality_rating)].join(' · ');
