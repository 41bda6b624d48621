/**
 * A QR's content as the PNG data URL `channel.qr_update` carries and the frames show, the same for every transport.
 * The QR library is loaded with the first QR drawn: a gateway with no channel being connected does not hold it.
 */
export const renderQr = async (payload: string): Promise<string> => {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 264 });
};
