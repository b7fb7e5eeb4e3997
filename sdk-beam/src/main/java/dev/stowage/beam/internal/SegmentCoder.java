package dev.stowage.beam.internal;

import dev.stowage.spi.ScanSegment;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;

/** Encodes a {@link ScanSegment}, a plain value a driver reads back (its bounds are ASCII). */
public final class SegmentCoder extends CustomCoder<ScanSegment> {
  private static final long serialVersionUID = 1L;
  private static final SegmentCoder INSTANCE = new SegmentCoder();

  private SegmentCoder() {}

  /** The coder. */
  public static SegmentCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(ScanSegment s, OutputStream out) throws IOException {
    DataOutputStream d = new DataOutputStream(out);
    d.writeBoolean(s.index() != null);
    if (s.index() != null) {
      d.writeUTF(s.index());
    }
    d.writeInt(s.number());
    d.writeInt(s.total());
    byte[] bounds = s.bounds().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    d.writeInt(bounds.length);
    d.write(bounds);
    d.flush();
  }

  @Override
  public ScanSegment decode(InputStream in) throws IOException {
    DataInputStream d = new DataInputStream(in);
    String index = d.readBoolean() ? d.readUTF() : null;
    int number = d.readInt();
    int total = d.readInt();
    byte[] bounds = new byte[d.readInt()];
    d.readFully(bounds);
    return new ScanSegment(
        index, number, total, new String(bounds, java.nio.charset.StandardCharsets.US_ASCII));
  }

  @Override
  public void verifyDeterministic() {}
}
