package dev.stowage.beam.internal;

import dev.stowage.beam.StoreSpec;
import dev.stowage.item.Item;
import dev.stowage.typed.TypedSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Encodes instances of a typed class through their stored form: the item the class's {@link
 * TypedSchema} maps an instance to, written with {@link ItemCoder}, and mapped back when decoded.
 * The schema is opened once per coder instance on each worker (schemas are not serialisable).
 *
 * @param <T> the typed class
 */
public final class TypedCoder<T> extends CustomCoder<T> {
  private static final long serialVersionUID = 1L;
  private final Class<T> type;
  private final StoreSpec.Opener<TypedSchema<T>> opener;
  private transient volatile TypedSchema<T> schema;

  private TypedCoder(Class<T> type, StoreSpec.Opener<TypedSchema<T>> opener) {
    this.type = Objects.requireNonNull(type, "type");
    this.opener = Objects.requireNonNull(opener, "schema");
  }

  /** The coder of {@code type}, mapped by the schema {@code opener} opens. */
  public static <T> TypedCoder<T> of(Class<T> type, StoreSpec.Opener<TypedSchema<T>> opener) {
    return new TypedCoder<>(type, opener);
  }

  /** The schema, opened on first use. */
  public TypedSchema<T> schema() {
    TypedSchema<T> s = schema;
    if (s == null) {
      s = opener.open();
      if (!s.type().equals(type)) {
        throw new IllegalStateException(
            "the schema opener made a schema of " + s.type().getName() + ", not " + type.getName());
      }
      schema = s;
    }
    return s;
  }

  @Override
  public void encode(T value, OutputStream out) throws IOException {
    ItemCoder.of().encode(schema().toItem(value), out);
  }

  @Override
  public T decode(InputStream in) throws IOException {
    return schema().fromItem(ItemCoder.of().decode(in));
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    throw new NonDeterministicException(
        this, "typed instances are coded as items, which are not meant to be grouping keys");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TypedCoder<?> c && c.type.equals(type) && c.opener.equals(opener);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public String toString() {
    return "TypedCoder(" + type.getName() + ")";
  }

  /**
   * Maps decoded items to instances of the typed class.
   *
   * @param <T> the typed class
   */
  public static final class FromItemFn<T> extends DoFn<Item, T> {
    private static final long serialVersionUID = 1L;
    private final TypedCoder<T> coder;

    public FromItemFn(TypedCoder<T> coder) {
      this.coder = coder;
    }

    @ProcessElement
    public void process(@Element Item item, OutputReceiver<T> out) {
      out.output(coder.schema().fromItem(item));
    }
  }
}
