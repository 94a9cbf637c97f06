package io.stratus.aws;

import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.contract.MachineReservationServiceContract;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The machine contract on EC2 as LocalStack mocks it (its community EC2 is moto's: instances are
 * records, not machines, and any image id is accepted). Each run tags its instances with its own
 * value, so that listRunning sees only them.
 */
class Ec2MachinesContractTest extends MachineReservationServiceContract {
  private static AwsCloud cloud;

  @BeforeAll
  static void connect() {
    cloud =
        AwsCloud.connect(
            LocalStackFixture.get()
                .requireEc2()
                .config()
                .machineTag("contract-" + UUID.randomUUID().toString().substring(0, 8))
                .build());
  }

  @AfterAll
  static void disconnect() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Override
  protected MachineReservationService newMachines(long seed) {
    return cloud.machines();
  }
}
