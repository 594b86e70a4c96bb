// Where a config trains, from the DEVICES variable (checked in tasks/environment.py):
//   'cpu'           one process on the CPU (unset: the first GPU torch sees, else the CPU)
//   '0'             one process on GPU 0
//   '0,1,2,3'       AllenNLP's distributed trainer, one process per GPU (NCCL)
//   'cpu,cpu'       two processes on the CPU (gloo): distributed training without a GPU, for tests
// A task lib merges `config` into its config (it adds `distributed` and `trainer.cuda_device`) and
// sizes its batches with `batch_size(n)`, so that the batch the optimiser sees stays n however
// many processes share it (each process takes its own batch and DDP averages their gradients).
local names = [std.stripChars(name, ' ') for name in std.split(std.extVar('DEVICES'), ',')];
local ids = [if name == 'cpu' then -1 else std.parseInt(name) for name in names];
local processes = std.length(ids);

{
  processes:: processes,

  config:: if processes == 1 then { trainer+: { cuda_device: ids[0] } } else {
    distributed: {
      cuda_devices: ids,
      // Some task models leave parameters out of some batches (e.g. a mix whose place gets no input);
      // DDP then needs to look for them or it waits for their gradients forever.
      ddp_accelerator: { type: 'torch', find_unused_parameters: true },
    },
  },

  batch_size(size):: std.max(1, std.ceil(size / processes)),

  // For a config that must train in one process (the biLM's streams of text run on from batch to
  // batch, which splitting the batches between processes would break).
  single_process_config(why):: (
    assert processes == 1 : 'DEVICES is ' + std.extVar('DEVICES') + ': this config trains in one process (' + why + '); name one device';
    self.config
  ),
}
