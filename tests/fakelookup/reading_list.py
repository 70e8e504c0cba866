"""Made-up papers behind the shipped reading list (bot/data/reading-list.txt).

Each abstract opens with exactly the text the list holds for it (as the importer cleans it,
less the word the list cut off) and goes on with invented sentences; titles, authors, ids and
DOIs are invented too. Nothing here was fetched or copied from the papers themselves.
"""

from __future__ import annotations

from .records import Record

CATALOGUE: list[Record] = [
    # The paper the list's header names ("Related papers: Nonuniform-Tensor-Parallelism: …").
    Record(
        title="Nonuniform-Tensor-Parallelism: Mitigating GPU failures in Rack-Scale Model Training",
        authors=("Ravi Menon", "Claire Dubois", "Stefan Hofmann"),
        abstract=(
            "GPU failures interrupt large training runs several times a day, and restarting "
            "every replica from a checkpoint wastes hours of cluster time. We let a data-parallel "
            "replica that lost some of its GPUs keep training with a smaller tensor-parallel "
            "degree while the healthy replicas continue unchanged. The degraded replica stays "
            "in step by taking a smaller share of each global batch. In simulation at 32,000 "
            "GPUs, throughput stays within 5% of a failure-free run."
        ),
        arxiv_id="2409.00421",
        doi="10.5555/fis.2024.0100",
        published="2024-09-01",
    ),
    Record(
        title="Quill: Slicing and Parallelizing CNN Inference for Multicore NPUs",
        authors=("Ana Silva", "Bo Chen", "Kiran Mehta"),
        abstract=(
            "Although code generation for Convolution Neural Network (CNN) models has been "
            "extensively studied, performing efficient data slicing and parallelization for "
            "highly-constrained Multicore Neural Processor Units (NPUs) is still a challenging "
            "problem. We present Quill, a compiler that tiles tensors across cores and picks a "
            "slicing for each layer with a small cost model of on-chip buffers and inter-core "
            "links. On three NPU configurations, Quill's schedules run 1.4x to 2.3x faster than "
            "hand-written baselines."
        ),
        arxiv_id="2409.01017",
        doi="10.5555/fis.2024.0101",
        published="2024-09-02",
    ),
    Record(
        title="EmberShard: Placing Sparse Embedding Tables for Distributed Recommendation Training",
        authors=("Lena Fischer", "Tomas Okafor"),
        abstract=(
            "The increasing complexity of deep learning recommendation models (DLRM) has led to a "
            "growing need for large-scale distributed systems that can efficiently train vast "
            "amounts of data. In DLRM, the sparse embedding table is a component that dominates "
            "both memory footprint and communication volume. We present EmberShard, a placement "
            "planner that splits tables by access frequency and keeps hot rows next to the "
            "workers that read them. On a 64-GPU cluster EmberShard cuts all-to-all traffic by "
            "41% and shortens iterations by 1.7x over column-wise sharding."
        ),
        arxiv_id="2409.01388",
        published="2024-09-02",
    ),
    Record(
        title="Scaling Recurrent Network Training Across Nodes with Overlapped Gradient Exchange",
        authors=("Priya Raman", "Daniel Whitcombe", "Hao Lin"),
        abstract=(
            "As recurrent neural networks become larger and deeper, training times for single "
            "networks are rising into weeks or even months. As such there is a significant "
            "incentive to improve the performance and scalability of these networks. Data "
            "parallelism is the usual remedy, but the sequential dependence of recurrent layers "
            "leaves devices idle while gradients are exchanged. We describe a schedule that "
            "overlaps each layer's gradient exchange with the backward pass of the layers below "
            "it. On 32 nodes it reaches 88% scaling efficiency on a speech model without "
            "changing its convergence."
        ),
        arxiv_id="2409.01742",
        doi="10.5555/fis.2024.0102",
        published="2024-09-03",
    ),
    Record(
        title="Compact Serving of Billion-Parameter Transformers on Commodity Accelerators",
        authors=("Marta Kowalczyk", "Jun Park", "Samuel Adeyemi", "Elif Demir"),
        abstract=(
            "Large transformer models display promising performance on a wide range of natural "
            "language processing (NLP) tasks. Although the AI community has expanded the model "
            "scale to the trillion parameter level, the practical deployment of models with tens "
            "of billions of parameters remains limited by memory and latency budgets. We combine "
            "layer-wise quantization with a partitioned key-value cache so that such models fit "
            "on a handful of commodity accelerators. Our system serves a 30-billion-parameter "
            "model at interactive latency on four cards, within half a point of full-precision "
            "accuracy."
        ),
        arxiv_id="2409.02065",
        published="2024-09-03",
    ),
    Record(
        title=(
            "Closing the Gap: Fast Asynchronous Training of Generalized Linear Models on "
            "Multicore CPUs"
        ),
        authors=("Clara Jensen", "Victor Ruiz"),
        abstract=(
            "In this paper we analyze, evaluate, and improve the performance of training "
            "generalized linear models on modern CPUs. We start with a state-of-the-art "
            "asynchronous parallel training algorithm, identify system-level performance "
            "bottlenecks, and remove them one at a time. Cache-aware data layouts, a lock-free "
            "model update and NUMA-local work queues together make the solver up to 5x faster. "
            "The improved algorithm also needs fewer epochs, because fresher model values reach "
            "every thread."
        ),
        arxiv_id="2409.02391",
        doi="10.5555/fis.2024.0103",
        published="2024-09-04",
    ),
    Record(
        title="SlackPipe: Memory-Balanced Pipeline Parallelism with Bounded Weight Staleness",
        authors=("Noah Brandt", "Aiko Tanaka", "Ravi Subramanian"),
        abstract=(
            "To train modern large DNN models, pipeline parallelism has recently emerged, which "
            "distributes the model across GPUs and enables different devices to process "
            "different microbatches in pipeline. Earlier pipeline designs allow microbatches to "
            "see different weight versions, which saves time but costs memory on every stage. "
            "We present SlackPipe, a scheduler that bounds staleness to one version and "
            "rebalances activation memory across stages. SlackPipe trains models 1.3x larger on "
            "the same GPUs at matching throughput."
        ),
        arxiv_id="2409.02810",
        published="2024-09-05",
    ),
    Record(
        title="BatchTide: Throughput-Oriented Offline LLM Inference Beyond GPU Memory Limits",
        authors=("Isabel Moreau", "Kwame Mensah", "Yuki Sato"),
        abstract=(
            "The rapid adoption of large language models (LLMs) has shifted a substantial portion "
            "of inference workloads into throughput-oriented offline regimes, where fully "
            "utilizing GPU compute requires large batch sizes. However, serving engines keep the "
            "whole key-value cache in GPU memory, which caps the batch size long before compute "
            "is saturated. BatchTide spills cold cache blocks to host memory and prefetches them "
            "one layer ahead, so batches can grow several-fold. On offline summarization "
            "workloads it raises tokens per second by 2.1x on a single GPU."
        ),
        arxiv_id="2409.03154",
        doi="10.5555/fis.2024.0104",
        published="2024-09-05",
    ),
    Record(
        title="Why Multi-GPU Applications Scale Sub-Linearly: A Study of Inter-GPU Traffic",
        authors=("Oliver Grant", "Mei Huang"),
        abstract=(
            "The sizes of GPU applications are rapidly growing. They are exhausting the compute "
            "and memory resources of a single GPU, and are demanding the move to multiple GPUs. "
            "However, the performance of these applications scales sub-linearly as remote "
            "memory accesses and synchronization come to dominate. We characterise twelve "
            "applications on two interconnect generations and find that most of their inter-GPU "
            "traffic comes from a few shared data structures. Replicating those structures and "
            "batching remote writes recovers most of the lost scaling."
        ),
        arxiv_id="2409.03477",
        published="2024-09-06",
    ),
    Record(
        title="Straggler-Tolerant Distributed Inference for Transformer Language Models",
        authors=("Sofia Lindqvist", "Arjun Nair", "Felix Baumann"),
        abstract=(
            "Large Language Models (LLMs) built on transformer architectures have transformed "
            "natural language processing, achieving remarkable performance across diverse "
            "applications. While distributed inference frameworks enable practical serving of "
            "models too large for one device, a single slow device stalls every request that "
            "passes through it. We propose a scheduler that spots lagging devices from per-layer "
            "timings and reroutes partial computations to replicas. On a 16-GPU testbed with "
            "injected slowdowns, tail latency falls by 58% for 6% more memory."
        ),
        arxiv_id="2409.03902",
        doi="10.5555/fis.2024.0105",
        published="2024-09-06",
    ),
    Record(
        title="Parallel Persistent Homology for Large Point Clouds on Multi-Core Machines",
        authors=("Hannah Keller", "Mateo Rossi"),
        abstract=(
            "Persistent homology is a crucial invariant that is used in many areas to understand "
            "data. The O(N^4) run time is a hindrance to its use on most large datasets. We give "
            "a parallelization method to utilize multi-core machines and computing clusters. The "
            "method splits the filtration into overlapping blocks whose boundary matrices are "
            "reduced independently and then merged. On point clouds with millions of simplices "
            "it reaches near-linear speedups up to 64 cores."
        ),
        arxiv_id="2409.04236",
        published="2024-09-07",
    ),
    Record(
        title="Beyond HBM: Tiered Memory for Training Large Language Models on Few GPUs",
        authors=("Grace Liu", "Pavel Novak", "Amara Obi"),
        abstract=(
            "The rapid growth of large language models (LLMs) has outpaced the evolution of "
            "single-GPU hardware, making model scale increasingly constrained by memory capacity "
            "rather than computation. While modern training systems extend GPU capacity with "
            "host memory and fast storage, they move data coarsely and stall the GPU while they "
            "wait. We present a tiered memory manager that tracks tensor lifetimes across "
            "iterations and schedules transfers ahead of need. It trains a 70-billion-parameter "
            "model on eight GPUs at 1.6x the throughput of existing offloading systems."
        ),
        arxiv_id="2409.04561",
        doi="10.5555/fis.2024.0106",
        published="2024-09-08",
    ),
    Record(
        title="Rethinking Fixed Training Recipes for Compute-Efficient Language Models",
        authors=("Julia Santos", "Ethan Cole"),
        abstract=(
            "Optimizing training performance in large language models (LLMs) remains an "
            "essential challenge, particularly in improving model performance while maintaining "
            "computational costs. This work challenges the conventional approach of giving every "
            "layer the same precision and learning-rate schedule. We show that layer-specific "
            "schedules, chosen by a cheap sensitivity probe, reach the same loss with 18% less "
            "compute. The gains hold from 125 million to 7 billion parameters."
        ),
        arxiv_id="2409.04918",
        published="2024-09-08",
    ),
    Record(
        title="TensorScout: Fast Search for Tensor Parallel Strategies",
        authors=("Wei Zhang", "Laura Becker", "Omar Haddad", "Nina Petrova"),
        abstract=(
            "Tensor parallelism is an essential technique for distributed training of large "
            "neural networks. However, automatically determining an optimal tensor parallel "
            "strategy is challenging due to the gigantic search space, which explodes with model "
            "depth and cluster size. TensorScout prunes this space with symmetry rules and a "
            "learned cost model, then refines the best candidates with short profiling runs. It "
            "finds strategies within 3% of the best known ones in minutes rather than hours."
        ),
        arxiv_id="2409.05203",
        doi="10.5555/fis.2024.0107",
        published="2024-09-09",
    ),
    Record(
        title="RailNet: A Low-Cost Datacenter Network for Hyperscale Language Model Training",
        authors=("Dmitri Volkov", "Chloe Martin"),
        abstract=(
            "This paper presents a low-cost network architecture for training large language "
            "models (LLMs) at hyperscale. We study the optimal parallelization strategy of LLMs "
            "and propose a novel datacenter network design tailored to LLM's traffic, in which "
            "most bytes stay within small groups of GPUs. RailNet links GPUs of the same rank "
            "across servers with inexpensive switches and drops the costly upper layers. "
            "Simulations at 32,000 GPUs show training throughput within 2% of a full-bisection "
            "fabric at 40% lower network cost."
        ),
        arxiv_id="2409.05647",
        published="2024-09-10",
    ),
    Record(
        title="Putting Mobile NPUs to Work for On-Device LLM Inference",
        authors=("Lucas Ferreira", "Ji-woo Han", "Anika Bose"),
        abstract=(
            "Deploying Large Language Models (LLMs) on mobile devices faces the challenge of "
            "insufficient performance in smaller models and excessive resource consumption in "
            "larger ones. This paper highlights that mobile Neural Processing Units sit mostly "
            "idle during language model inference, because their fixed-shape operators fit "
            "prompts poorly. We cut prompts into fixed-size chunks and run attention on the CPU "
            "while the NPU runs the dense layers. On three recent phones prefill becomes 7x "
            "faster and energy per token halves."
        ),
        arxiv_id="2409.05981",
        doi="10.5555/fis.2024.0108",
        published="2024-09-10",
    ),
    Record(
        title="Adaptive Work Rebalancing for Dynamic Stragglers in Large-Scale Training",
        authors=("Erik Johansson", "Fatima Zahra", "Kenji Mori"),
        abstract=(
            "As the scale of models and training data continues to grow, there is an expanding "
            "reliance on more GPUs to train large-scale models, which inevitably increases the "
            "likelihood of encountering dynamic stragglers that some devices lag for seconds or "
            "minutes at a time. We measure such slowdowns on a production-like cluster and find "
            "them frequent, short and hard to predict. Our system moves microbatches away from "
            "slow devices at every step, recovering 90% of the throughput stragglers cost."
        ),
        arxiv_id="2409.06322",
        published="2024-09-11",
    ),
    Record(
        title="Cutting the Cost of LLM Training with Spot Instances and Elastic Parallelism",
        authors=("Rebecca Stone", "Ahmed Karim"),
        abstract=(
            "Large language models (LLMs) such as GPT-3, OPT, and LLaMA have demonstrated "
            "remarkable accuracy in a wide range of tasks. However, training these models can "
            "incur significant expenses, often requiring tens of thousands of GPUs for weeks. We "
            "show how preemptible cloud instances can carry much of this load when the parallel "
            "configuration adapts as instances come and go. Our prototype reconfigures in under "
            "a minute and trains a 13-billion-parameter model at 2.4x lower cost."
        ),
        arxiv_id="2409.06750",
        doi="10.5555/fis.2024.0109",
        published="2024-09-11",
    ),
    Record(
        title="Data-Aware Distributed Training for Multimodal Large Language Models",
        authors=("Yara Nassar", "Liam O'Connor", "Xin Wu", "Elena Greco", "Tobias Wagner"),
        abstract=(
            "Multimodal Large Language Models (MLLMs) have achieved remarkable advances by "
            "integrating text, image, and audio understanding within a unified architecture. "
            "However, existing distributed training frameworks remain fundamentally blind to the "
            "data: they split work as if every sample cost the same, although images, audio and "
            "text differ widely in compute. We introduce a planner that estimates each sample's "
            "cost per modality and packs microbatches so that every device finishes at the same "
            "time. Across three model families it improves training throughput by 1.5x."
        ),
        arxiv_id="2409.07084",
        published="2024-09-12",
    ),
    Record(
        title="Three-Level Parallelization of Data-Heavy Non-SIMD Problems on GPU Clusters",
        authors=("Ivan Petrov", "Maria Georgieva"),
        abstract=(
            "In this paper we solve on GPUs massive problems with large amount of data, which "
            "are not appropriate for solution with the SIMD technology. For the given problem we "
            "consider a three-level parallelization. The multithreading of CPU is what feeds "
            "several GPUs at once, each GPU runs many independent sub-problems, and inside each "
            "sub-problem threads cooperate on shared data. The scheme keeps all three levels "
            "busy although the problem does not suit SIMD execution. On a four-GPU node it "
            "solves instances 30 times larger than a CPU-only code in the same time."
        ),
        arxiv_id="2409.07419",
        doi="10.5555/fis.2024.0110",
        published="2024-09-12",
    ),
    Record(
        title=(
            "When More Languages Hurt: Diagnosing Direction Collapse in Multilingual LLM "
            "Translation"
        ),
        authors=("Sara Lindgren", "Mohammed Al-Amin", "Chen Jie"),
        abstract=(
            "Large language models have significantly advanced Multilingual Machine Translation "
            "(MMT), yet scaling to many languages while keeping quality robust across directions "
            "remains challenging. In this paper, we identify a failure mode in many-to-many "
            "fine-tuning where translation into low-resource languages quietly drifts into a "
            "related high-resource one. We trace the drift to imbalanced gradient contributions "
            "across target languages and propose a simple per-direction reweighting. It removes "
            "most off-target outputs and raises average quality on 50 languages by 2.3 points."
        ),
        arxiv_id="2409.07863",
        published="2024-09-13",
    ),
]
