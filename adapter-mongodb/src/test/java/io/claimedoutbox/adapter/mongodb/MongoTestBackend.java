package io.claimedoutbox.adapter.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mongodb.MongoDBContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The MongoDB the tests run against, found in this order: {@code OUTBOX_MONGODB_URI}; a server on
 * 127.0.0.1:27017; a real MongoDB in a container (image {@code mongo:7.0}, override with
 * {@code OUTBOX_MONGODB_IMAGE}) when a Docker engine is reachable; otherwise the in-process
 * wire-protocol stand-in {@code mongo-java-server}. Which one ran is printed and is part of the
 * test report's backend name.
 */
final class MongoTestBackend implements AutoCloseable {

  static final String URI_VARIABLE = "OUTBOX_MONGODB_URI";
  static final String DEFAULT_IMAGE = "mongo:7.0";

  enum Kind {
    EXPLICIT_URI("MongoDB named by " + URI_VARIABLE),
    LOCAL_SERVER("MongoDB on 127.0.0.1:27017"),
    CONTAINER("MongoDB in a Testcontainers container"),
    STAND_IN("in-process mongo-java-server stand-in (not a real MongoDB)");

    final String description;

    Kind(String description) {
      this.description = description;
    }
  }

  final Kind kind;
  final String connectionString;
  private final AutoCloseable resource;

  private MongoTestBackend(Kind kind, String connectionString, AutoCloseable resource) {
    this.kind = kind;
    this.connectionString = connectionString;
    this.resource = resource;
  }

  static MongoTestBackend find() {
    Optional<String> explicit = Optional.ofNullable(System.getProperty("outbox.mongodb.uri"))
        .or(() -> Optional.ofNullable(System.getenv(URI_VARIABLE)));
    if (explicit.isPresent()) {
      return new MongoTestBackend(Kind.EXPLICIT_URI, explicit.get(), null);
    }
    if (listening("127.0.0.1", 27017)) {
      return new MongoTestBackend(Kind.LOCAL_SERVER, "mongodb://127.0.0.1:27017", null);
    }
    if (dockerReachable()) {
      String image = Optional.ofNullable(System.getenv("OUTBOX_MONGODB_IMAGE")).orElse(DEFAULT_IMAGE);
      MongoDBContainer container = new MongoDBContainer(DockerImageName.parse(image));
      container.start();
      return new MongoTestBackend(Kind.CONTAINER, container.getReplicaSetUrl(), container);
    }
    MongoServer server = new MongoServer(new SnapshotMemoryBackend());
    InetSocketAddress address = server.bind();
    return new MongoTestBackend(Kind.STAND_IN,
        "mongodb://" + address.getHostString() + ":" + address.getPort(), server::shutdownNow);
  }

  private static boolean listening(String host, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 200);
      return true;
    } catch (java.io.IOException closed) {
      return false;
    }
  }

  private static boolean dockerReachable() {
    if (System.getenv("DOCKER_HOST") == null
        && !java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))) {
      return false;
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError unavailable) {
      return false;
    }
  }

  boolean isStandIn() {
    return kind == Kind.STAND_IN;
  }

  MongoClient newClient() {
    return MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(new ConnectionString(connectionString))
        .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
        .build());
  }

  /** Whether the server runs multi-document transactions (a replica set or sharded cluster). */
  boolean supportsTransactions(MongoClient client) {
    if (isStandIn()) {
      return false;
    }
    Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
    return hello.containsKey("setName") || "isdbgrid".equals(hello.getString("msg"));
  }

  @Override
  public void close() throws Exception {
    if (resource != null) {
      resource.close();
    }
  }
}
