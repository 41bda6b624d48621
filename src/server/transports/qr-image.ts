import QRCode from 'qrcode';

/** A QR's content as the PNG data URL `channel.qr_update` carries and the frames show, the same for every transport. */
export const renderQr = (payload: string): Promise<string> => QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 264 });
