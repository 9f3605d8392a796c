package pykafka.peers;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Word count as a streams group (KIP-1071, group.protocol=streams): the broker registers the
 * topology, creates the repartition and changelog topics and assigns the tasks.
 *
 *   java -cp 'peers/target/kafka-lib/*' pykafka.peers.StreamsGroupWordCount BOOTSTRAP INPUT OUTPUT APP_ID STATE_DIR [GUARANTEE [HOST:PORT]]
 *
 * Lines of INPUT are split on non-letters and lower-cased; each word is re-keyed (a repartition
 * topic), counted (a state store and its changelog topic) and every count update goes to OUTPUT as
 * (word, count as a decimal string). GUARANTEE is at_least_once (default) or exactly_once_v2. Prints "RUNNING" on stdout whenever the application becomes
 * RUNNING; stops cleanly on SIGTERM. With HOST:PORT (application.server, interactive queries) it also prints,
 * whenever it changes, what the instance knows of every instance's endpoint from the group (KIP-1071's
 * PartitionsByUserEndpoint): {"endpoints": [{"host", "port", "active": ["topic-p", ...], "standby": [...]}]}.
 */
public final class StreamsGroupWordCount {
    public static void main(String[] args) throws InterruptedException {
        if (args.length < 5) {
            System.err.println("usage: StreamsGroupWordCount BOOTSTRAP INPUT OUTPUT APP_ID STATE_DIR");
            System.exit(2);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[3]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[4]);
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, args.length > 5 ? args[5] : "at_least_once");
        if (args.length > 6) {
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, args[6]);
        }
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put("consumer.auto.offset.reset", "earliest");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.String().getClass());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.String().getClass());

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(args[1], Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
            .filter((key, word) -> !word.isEmpty())
            .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
            .count()
            .toStream()
            .mapValues(count -> Long.toString(count))
            .to(args[2], Produced.with(Serdes.String(), Serdes.String()));

        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch done = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            System.err.println("state " + before + " -> " + now);
            if (now == KafkaStreams.State.RUNNING) {
                System.out.println("RUNNING");
                System.out.flush();
            }
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                done.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(10));
            done.countDown();
        }));
        streams.start();
        if (args.length > 6) {
            Thread endpoints = new Thread(() -> printEndpoints(streams, done), "endpoints");
            endpoints.setDaemon(true);
            endpoints.start();
        }
        done.await();
    }

    private static void printEndpoints(KafkaStreams streams, CountDownLatch done) {
        String last = "";
        while (done.getCount() > 0) {
            try {
                if (streams.state() == KafkaStreams.State.RUNNING) {
                    String now = streams.metadataForAllStreamsClients().stream()
                        .sorted(Comparator.comparing((StreamsMetadata m) -> m.hostInfo().port()))
                        .map(m -> "{\"host\":\"" + m.hostInfo().host() + "\",\"port\":" + m.hostInfo().port()
                            + ",\"active\":" + names(m.topicPartitions())
                            + ",\"standby\":" + names(m.standbyTopicPartitions()) + "}")
                        .collect(Collectors.joining(",", "{\"endpoints\":[", "]}"));
                    if (!now.equals(last)) {
                        System.out.println(now);
                        System.out.flush();
                        last = now;
                    }
                }
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // metadata not available yet (e.g. rebalancing): try again
            }
        }
    }

    private static String names(Set<TopicPartition> tps) {
        Collection<String> sorted = tps.stream().map(tp -> "\"" + tp.topic() + "-" + tp.partition() + "\"").sorted()
            .collect(Collectors.toList());
        return "[" + String.join(",", sorted) + "]";
    }
}
