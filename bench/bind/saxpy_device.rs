// The generated saxpy crate on a real GPU (bench/bind/run_device.sh copies it into examples/).
use saxpy::{saxpy, Check, DeviceBuffer, Error, LaunchConfig};

fn main() -> Result<(), Error> {
    let n = 1usize << 18;
    let x: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 53) % 97) as f32 / 48.0 - 1.0).collect();
    let dx = DeviceBuffer::from_slice(&x)?;
    let mut dy = DeviceBuffer::from_slice(&y)?;
    saxpy(&LaunchConfig::new(), &dx, &mut dy, 2.5)?;
    let out = dy.to_vec()?;
    let worst = out.iter().zip(x.iter().zip(&y)).map(|(o, (x, y))| (o - (2.5 * x + y)).abs()).fold(0.0f32, f32::max);
    println!("rust: saxpy n={n} max |diff| vs host {worst:.3e}");
    let bad = LaunchConfig::new().threads_per_workgroup([2048, 1, 1]);
    match saxpy(&bad, &dx, &mut dy, 2.5) {
        Err(Error::Runtime { check: Check::Launch, code, message, .. }) => {
            println!("rust: block 2048 -> launch check: {message} (error {code})")
        }
        other => println!("rust: block 2048 -> unexpected {other:?}"),
    }
    let short = DeviceBuffer::<f32>::zeroed(n - 1)?;
    let mut dy2 = DeviceBuffer::<f32>::zeroed(n - 1)?;
    drop(short);
    println!("rust: short y -> {}", saxpy(&LaunchConfig::new(), &dx, &mut dy2, 2.5).map(|_| "ok".to_string()).unwrap_or_else(|e| e.to_string()));
    println!("{}", if worst <= 1e-5 { "rust: PASS" } else { "rust: FAIL" });
    Ok(())
}
