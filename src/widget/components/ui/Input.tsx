/** The frames' text inputs share one look: a framed box on the panel's colour. */
export const inputClass = 'w-full rounded-lg border border-line bg-panel px-2.5 py-2 text-inherit placeholder:text-muted';
